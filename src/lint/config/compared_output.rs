//! Where a command's output ends when nothing applies it: every later command of its script
//! that reads the file it writes (through text tools such as `awk | sort > FILE`) compares it
//! (`kapp tools diff`, `diff`, `git diff`, `dyff`), and no command of the repository deploys
//! a file of that name (round twenty-nine's R29-2). Its objects never reach an API server.

use serde::{Deserialize, Serialize};

/// The comparison that reads a command's output, which nothing applies.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Compared {
    /// Where the comparing command is written.
    pub file: String,
    pub line: u32,
    /// `kapp tools diff`, `diff`...
    pub tool: String,
    /// The file it compares, as the script names it (`dst`).
    pub output: String,
}
