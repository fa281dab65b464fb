//! Tests of the schema on documents parsed from realistic schemas.
