//! What a request about a position is answered from: the project, the document's text and
//! the line under the cursor, and the root's schema (computed once per edit generation).

use std::cell::RefCell;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::rc::Rc;

use std::time::{Duration, Instant};

use lsp_types::{Location, Position, Range};

use crate::eval::cancel::Flag;

use super::positions::{from_span, line_text, offset, path_uri};
use super::project::Project;
use super::values::RootSchema;

/// How long the data values of a root may take to compute for a question about them.
const ANSWER_WITHIN: Duration = Duration::from_secs(3);

/// Schemas by root job, valid for one generation of the documents.
#[derive(Default)]
pub struct SchemaCache {
    generation: u64,
    by_root: RefCell<HashMap<String, Option<Rc<RootSchema>>>>,
}

impl SchemaCache {
    /// Forgets every schema when the documents changed since they were computed.
    pub fn at_generation(&mut self, generation: u64) {
        if generation != self.generation {
            self.generation = generation;
            self.by_root.borrow_mut().clear();
        }
    }

    /// Forgets every schema (the project was reloaded).
    pub fn clear(&mut self) {
        self.by_root.borrow_mut().clear();
    }
}

/// A request at one position of one document.
pub struct Ctx<'a> {
    pub project: &'a Project,
    pub path: &'a Path,
    pub text: &'a str,
    pub line_no: u32,
    pub line: &'a str,
    /// The cursor's byte column in `line`.
    pub byte: usize,
    schemas: &'a SchemaCache,
}

impl<'a> Ctx<'a> {
    /// The context of `pos` in `text`; `None` past the end of the text.
    pub fn new(
        project: &'a Project,
        path: &'a Path,
        text: &'a str,
        pos: Position,
        schemas: &'a SchemaCache,
    ) -> Option<Ctx<'a>> {
        let line = line_text(text, pos.line)?;
        let at = offset(text, pos)?;
        let line_start = at - super::positions::byte_col(line, pos.character);
        Some(Ctx {
            project,
            path,
            text,
            line_no: pos.line,
            line,
            byte: at - line_start,
            schemas,
        })
    }

    /// The schema of the root that reads this file.
    pub fn schema(&self) -> Option<Rc<RootSchema>> {
        let job = self.project.job_of(self.path)?;
        let key = format!("{}\0{:?}", job.root, job.scenario);
        if let Some(s) = self.schemas.by_root.borrow().get(&key) {
            return s.clone();
        }
        // The data values files are evaluated: within the job's memory budget and a short
        // deadline, so that a runaway values file costs an answer, not the server.
        let bounds = super::linter::Bounds::current();
        let flag = Flag::new()
            .with_deadline(Instant::now() + ANSWER_WITHIN)
            .with_memory(bounds.soft, bounds.hard);
        let computed = crate::eval::cancel::within(Some(&flag), || {
            let (ws, names) = self.project.workspace(&job)?;
            let schema = ws.data_values_schema().ok()?;
            let set = super::values::values_set(&ws);
            let scenarios = super::values::scenario_values(self.project, &job);
            Some(Rc::new(RootSchema {
                schema,
                names,
                set,
                scenarios,
            }))
        });
        self.schemas
            .by_root
            .borrow_mut()
            .insert(key, computed.clone());
        computed
    }

    /// The range from byte column `start` to `end` of the cursor's line.
    pub fn range(&self, start: usize, end: usize) -> Range {
        let col = |b: usize| super::positions::utf16_col(self.line, b);
        Range::new(
            Position::new(self.line_no, col(start)),
            Position::new(self.line_no, col(end)),
        )
    }
}

/// The location of line and character column (from 1) of the repository file `rel`.
pub fn location(project: &Project, rel: &str, line: u32, column: u32) -> Option<Location> {
    let abs: PathBuf = project.dir().join(rel);
    location_abs(project, &abs, line, column)
}

/// [`location`] for an absolute path (read under the repository's policy).
pub fn location_abs(project: &Project, abs: &Path, line: u32, column: u32) -> Option<Location> {
    let policy = crate::files::ReadPolicy::repository(project.dir());
    let text = crate::files::read_allowed(abs, &policy).and_then(|b| String::from_utf8(b).ok());
    let start = from_span(text.as_deref(), line.max(1), column.max(1));
    Some(Location::new(path_uri(abs)?, Range::new(start, start)))
}
