//! The Go types of a KubeVirt `VirtualMachine`, as far as the template validator can see them.
//!
//! The validator decodes a VM into Go structs and runs its JSONPaths over them, so whether a
//! path "exists" depends on each field's Go type: a nil pointer, an empty slice and a zero
//! scalar all behave differently. `types.txt` (generated from kubevirt.io/api by
//! `scripts/kubevirt_schema.py`) lists every field; this module loads it into a type table.

use std::collections::HashMap;

/// Index of a type in [`Schema::types`].
pub type TyId = usize;

/// A Go type.
#[derive(Clone, Debug, PartialEq)]
pub enum Ty {
    /// A scalar; `go` is its Go name (`uint32`, `string`, `v1.DiskBus`).
    Basic {
        kind: Basic,
        go: String,
    },
    /// `resource.Quantity`.
    Quantity,
    Struct {
        name: String,
        fields: Vec<Field>,
    },
    Ptr(TyId),
    Slice(TyId),
    Map(TyId),
    /// A type from outside kubevirt.io/api: read from the YAML as it is.
    Opaque,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Basic {
    String,
    Bool,
    Int,
    Float,
}

/// A struct field: its JSON name, its Go name and its type.
#[derive(Clone, Debug, PartialEq)]
pub struct Field {
    pub json: String,
    pub go: String,
    pub ty: TyId,
}

/// The loaded type table.
#[derive(Debug)]
pub struct Schema {
    pub types: Vec<Ty>,
    names: HashMap<String, TyId>,
    aliases: HashMap<String, Basic>,
    interned: HashMap<String, TyId>,
    /// `VirtualMachine`, the root of every path.
    pub vm: TyId,
    pub string: TyId,
    pub int: TyId,
    pub float: TyId,
    pub boolean: TyId,
}

const TYPES: &str = include_str!("types.txt");

fn basic_of(name: &str) -> Option<Basic> {
    Some(match name {
        "string" => Basic::String,
        "bool" => Basic::Bool,
        "float32" | "float64" => Basic::Float,
        "int" | "int8" | "int16" | "int32" | "int64" | "uint" | "uint8" | "uint16" | "uint32"
        | "uint64" | "byte" => Basic::Int,
        _ => return None,
    })
}

impl Schema {
    /// Loads the embedded table of KubeVirt types.
    pub fn load() -> Result<Schema, String> {
        Schema::parse(TYPES)
    }

    /// The embedded table, loaded once per process (a run's jobs share it).
    pub fn shared() -> Result<&'static Schema, &'static str> {
        static SHARED: std::sync::OnceLock<Result<Schema, String>> = std::sync::OnceLock::new();
        match SHARED.get_or_init(Schema::load) {
            Ok(s) => Ok(s),
            Err(e) => Err(e.as_str()),
        }
    }

    /// Parses a table in the `types.txt` format.
    pub fn parse(text: &str) -> Result<Schema, String> {
        let mut s = Schema {
            types: Vec::new(),
            names: HashMap::new(),
            aliases: HashMap::new(),
            interned: HashMap::new(),
            vm: 0,
            string: 0,
            int: 0,
            float: 0,
            boolean: 0,
        };
        let lines: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
        for line in &lines {
            let words: Vec<&str> = line.split_whitespace().collect();
            match words.as_slice() {
                ["struct", name] => {
                    let id = s.types.len();
                    s.types.push(Ty::Struct {
                        name: (*name).to_string(),
                        fields: Vec::new(),
                    });
                    s.names.insert((*name).to_string(), id);
                }
                ["alias", name, base] => {
                    let kind = basic_of(base).ok_or_else(|| format!("bad alias line {line:?}"))?;
                    s.aliases.insert((*name).to_string(), kind);
                }
                _ => {}
            }
        }
        let mut current: Option<TyId> = None;
        for line in &lines {
            let words: Vec<&str> = line.split_whitespace().collect();
            match words.as_slice() {
                ["struct", name] => current = s.names.get(*name).copied(),
                ["alias", ..] | [] => {}
                [json, go, ty] if line.starts_with(' ') => {
                    let owner =
                        current.ok_or_else(|| format!("field outside a struct: {line:?}"))?;
                    let ty = s.intern(ty)?;
                    if let Some(Ty::Struct { fields, .. }) = s.types.get_mut(owner) {
                        fields.push(Field {
                            json: (*json).to_string(),
                            go: (*go).to_string(),
                            ty,
                        });
                    }
                }
                _ => return Err(format!("bad line {line:?}")),
            }
        }
        s.vm = *s
            .names
            .get("VirtualMachine")
            .ok_or("no VirtualMachine type")?;
        s.string = s.intern("string")?;
        s.int = s.intern("int")?;
        s.float = s.intern("float64")?;
        s.boolean = s.intern("bool")?;
        Ok(s)
    }

    fn intern(&mut self, spelled: &str) -> Result<TyId, String> {
        if let Some(id) = self.interned.get(spelled) {
            return Ok(*id);
        }
        let ty = if let Some(inner) = spelled.strip_prefix('*') {
            Ty::Ptr(self.intern(inner)?)
        } else if let Some(inner) = spelled.strip_prefix("[]") {
            Ty::Slice(self.intern(inner)?)
        } else if let Some(inner) = spelled.strip_prefix("map[string]") {
            Ty::Map(self.intern(inner)?)
        } else if spelled == "Quantity" {
            Ty::Quantity
        } else if spelled == "opaque" {
            Ty::Opaque
        } else if let Some(kind) = basic_of(spelled) {
            Ty::Basic {
                kind,
                go: spelled.to_string(),
            }
        } else if let Some(kind) = self.aliases.get(spelled) {
            Ty::Basic {
                kind: *kind,
                go: format!("v1.{spelled}"),
            }
        } else if let Some(id) = self.names.get(spelled) {
            self.interned.insert(spelled.to_string(), *id);
            return Ok(*id);
        } else {
            return Err(format!("unknown type {spelled:?}"));
        };
        let id = self.types.len();
        self.types.push(ty);
        self.interned.insert(spelled.to_string(), id);
        Ok(id)
    }

    pub fn ty(&self, id: TyId) -> &Ty {
        self.types.get(id).unwrap_or(&Ty::Opaque)
    }

    /// The field a JSONPath `.name` selects in a struct: by JSON name first, then by Go name.
    pub fn field(&self, id: TyId, name: &str) -> Option<&Field> {
        let Ty::Struct { fields, .. } = self.ty(id) else {
            return None;
        };
        fields
            .iter()
            .find(|f| f.json == name)
            .or_else(|| fields.iter().find(|f| f.go == name))
    }

    /// The struct's name, if the type is a struct.
    pub fn struct_name(&self, id: TyId) -> Option<&str> {
        match self.ty(id) {
            Ty::Struct { name, .. } => Some(name),
            _ => None,
        }
    }

    /// Go's spelling of the type, as `reflect.Type.String()` gives it.
    pub fn go_name(&self, id: TyId) -> String {
        match self.ty(id) {
            Ty::Basic { go, .. } => go.clone(),
            Ty::Quantity => "resource.Quantity".to_string(),
            Ty::Struct { name, .. } => format!("v1.{name}"),
            Ty::Ptr(inner) => format!("*{}", self.go_name(*inner)),
            Ty::Slice(inner) => format!("[]{}", self.go_name(*inner)),
            Ty::Map(inner) => format!("map[string]{}", self.go_name(*inner)),
            Ty::Opaque => "interface {}".to_string(),
        }
    }

    /// The type behind any pointers.
    pub fn deref(&self, mut id: TyId) -> TyId {
        while let Ty::Ptr(inner) = self.ty(id) {
            id = *inner;
        }
        id
    }

    /// Close field names of a struct, for "did you mean" hints.
    pub fn field_names(&self, id: TyId) -> Vec<&str> {
        match self.ty(id) {
            Ty::Struct { fields, .. } => fields.iter().map(|f| f.json.as_str()).collect(),
            _ => Vec::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn embedded_table_loads() {
        let s = Schema::load().unwrap();
        let spec = s.field(s.vm, "spec").unwrap().ty;
        let tmpl = s.field(spec, "template").unwrap().ty;
        assert_eq!(s.go_name(tmpl), "*v1.VirtualMachineInstanceTemplateSpec");
        let domain = s.field(s.deref(tmpl), "spec").map(|f| f.ty).unwrap();
        let domain = s.field(domain, "domain").unwrap().ty;
        let cpu = s.field(domain, "cpu").unwrap().ty;
        assert_eq!(s.go_name(cpu), "*v1.CPU");
        assert_eq!(
            s.go_name(s.field(s.deref(cpu), "cores").unwrap().ty),
            "uint32"
        );
        let memory = s.deref(s.field(domain, "memory").unwrap().ty);
        assert_eq!(
            s.go_name(s.field(memory, "guest").unwrap().ty),
            "*resource.Quantity"
        );
        // Go field names match too
        assert!(s.field(domain, "CPU").is_some());
    }

    #[test]
    fn inline_fields_are_flattened() {
        let s = Schema::load().unwrap();
        let disk = s.names["Disk"];
        assert_eq!(
            s.go_name(s.field(disk, "cdrom").unwrap().ty),
            "*v1.CDRomTarget"
        );
        let bus = s.field(s.names["DiskTarget"], "bus").unwrap().ty;
        assert_eq!(s.go_name(bus), "v1.DiskBus");
    }
}
