//! Branches and loops of a shell script, followed without running it: `if`/`elif`/`else`
//! (each arm under the file tests that guard it, the state after the statement the merge of
//! the arms), `for` over a word list (the variable takes each word), `case` arms, and the
//! file tests the linter can decide later against the repository (`[ -d X ]`, `test -f X`).

use tree_sitter::Node;

use super::env::{Alt, Cond, Env, Test};
use super::shell::Interp;
use super::word::Word;

impl<'t> Interp<'t> {
    pub(super) fn if_statement(&mut self, n: Node<'t>, env: &mut Env) {
        let mut c = n.walk();
        let kids: Vec<Node> = n.children(&mut c).collect();
        let mut conds: Vec<Node> = Vec::new();
        let mut body: Vec<Node> = Vec::new();
        let mut in_body = false;
        let mut arms: Vec<(Vec<Node>, Vec<Node>)> = Vec::new();
        for k in kids {
            match k.kind() {
                "then" => in_body = true,
                "elif_clause" | "else_clause" => {
                    arms.push((std::mem::take(&mut conds), std::mem::take(&mut body)));
                    in_body = false;
                    self.clause(k, &mut arms);
                }
                _ if !k.is_named() => {}
                _ if in_body => body.push(k),
                _ => conds.push(k),
            }
        }
        if !conds.is_empty() || !body.is_empty() {
            arms.insert(0, (conds, body));
        }
        let mut has_else = arms.last().is_some_and(|(c, _)| c.is_empty());
        let mut branches = Vec::new();
        let mut before: Vec<Cond> = Vec::new();
        for (cond_nodes, stmts) in arms {
            for c in &cond_nodes {
                self.stmt(*c, env);
            }
            let cond = cond_nodes.last().and_then(|c| self.condition(*c, env));
            // A flag the script gives one literal value: the arm runs for certain, or never.
            let decided = cond.as_ref().and_then(|c| self.decided(c, env));
            if decided == Some(false) {
                continue;
            }
            let cond = if decided.is_some() { None } else { cond };
            let mut when = before.clone();
            when.extend(cond.clone());
            let mut benv = env.clone();
            let depth = self.guards.len();
            self.guards.extend(when.iter().cloned());
            for s in stmts {
                self.stmt(s, &mut benv);
            }
            self.guards.truncate(depth);
            branches.push((benv, when));
            if decided == Some(true) {
                has_else = true;
                break;
            }
            before.extend(cond.map(|c| c.negated()));
        }
        if !has_else {
            branches.push((env.clone(), before));
        }
        *env = Env::merge(env, branches);
    }

    /// The condition and body of an `elif` or `else` clause, added to `arms`.
    fn clause(&self, n: Node<'t>, arms: &mut Vec<(Vec<Node<'t>>, Vec<Node<'t>>)>) {
        let mut c = n.walk();
        let mut conds = Vec::new();
        let mut body = Vec::new();
        let mut in_body = n.kind() == "else_clause";
        for k in n.children(&mut c) {
            match k.kind() {
                "then" => in_body = true,
                _ if !k.is_named() => {}
                _ if in_body => body.push(k),
                _ => conds.push(k),
            }
        }
        arms.push((conds, body));
    }

    /// A file test the linter can decide later: `[ -d X ]`, `[[ ! -f X ]]`, `test -e X`,
    /// `! [ -d X ]`.
    pub(super) fn condition(&mut self, n: Node<'t>, env: &mut Env) -> Option<Cond> {
        match n.kind() {
            "negated_command" => {
                let mut c = n.walk();
                let inner = n.named_children(&mut c).next()?;
                self.condition(inner, env).map(|c| c.negated())
            }
            "test_command" => {
                let mut c = n.walk();
                let inner = n.named_children(&mut c).next()?;
                let double = self.text(n).starts_with("[[");
                self.comparison(inner, env, double)
                    .or_else(|| self.unary(inner, env))
            }
            // `grep -q X "$f" || grep -q Y "$f"`, `grep X "$f" >/dev/null`.
            "list" => self.either_list(n, env),
            // The shell may hang the redirection on the whole list (`grep A "$f" || grep B
            // "$f" >/dev/null`): a list is read as one, each part a test or a grep.
            "redirected_statement" => {
                let body = n.child_by_field_name("body")?;
                let mut c = body.walk();
                let name = body.named_children(&mut c).next().map(|k| self.text(k));
                match body.kind() {
                    "list" => self.condition(body, env),
                    "command" if name == Some("grep") => self.condition(body, env),
                    _ => None,
                }
            }
            "command" => {
                let mut c = n.walk();
                let kids: Vec<Node> = n.named_children(&mut c).collect();
                if let Some(flag) = self.flag_condition(n) {
                    return Some(flag);
                }
                let name = kids.first().map(|k| self.text(*k))?;
                if name == "grep" {
                    return self.grep_test(&kids, env);
                }
                if name != "test" && name != "[" {
                    return None;
                }
                let texts: Vec<&str> = kids[1..].iter().map(|k| self.text(*k)).collect();
                let (negate, rest) = match texts.first() {
                    Some(&"!") => (true, 2),
                    _ => (false, 1),
                };
                let op = texts.get(rest - 1)?;
                let operand = kids.get(rest + 1)?;
                let cond = self.file_test(op, *operand, env)?;
                Some(if negate { cond.negated() } else { cond })
            }
            _ => None,
        }
    }

    fn unary(&mut self, n: Node<'t>, env: &mut Env) -> Option<Cond> {
        if n.kind() != "unary_expression" {
            return None;
        }
        let mut c = n.walk();
        let kids: Vec<Node> = n.children(&mut c).collect();
        match kids.as_slice() {
            [bang, inner] if self.text(*bang) == "!" => {
                self.unary(*inner, env).map(|c| c.negated())
            }
            [op, operand] => {
                let op = self.text(*op);
                self.file_test(op, *operand, env)
            }
            _ => None,
        }
    }

    fn file_test(&mut self, op: &str, operand: Node<'t>, env: &mut Env) -> Option<Cond> {
        let test = match op {
            "-d" => Test::Dir,
            "-f" | "-s" | "-r" => Test::File,
            "-e" => Test::Exists,
            "-h" | "-L" => Test::Symlink,
            _ => return None,
        };
        let cwd = env.cwd.clone()?;
        let exps = self.expand(operand, env, true);
        let [one] = exps.as_slice() else { return None };
        if !one.when.is_empty() {
            return None;
        }
        Some(Cond {
            test,
            path: one.joined().relative_to(&cwd),
            holds: true,
        })
    }

    pub(super) fn for_statement(&mut self, n: Node<'t>, env: &mut Env) {
        let mut c = n.walk();
        let kids: Vec<Node> = n.named_children(&mut c).collect();
        let Some(var) = kids.first() else { return };
        let var = self.text(*var).to_string();
        let mut alts = Vec::new();
        let mut body = None;
        // A glob's entries, one per iteration (see `glob_loop.rs`), unless the body sorts
        // them by a test the linter does not decide per entry.
        let mut markers = Vec::new();
        let per_entry = kids[1..]
            .iter()
            .find(|k| k.kind() == "do_group")
            .is_none_or(|b| !self.sorts_entries(*b));
        for k in &kids[1..] {
            if k.kind() == "do_group" {
                body = Some(*k);
                continue;
            }
            // `for name in $(ls DIR)` with the name used under `DIR/` (see `ls_loop.rs`).
            let listed = super::ls_loop::listed_dir(self.text(*k)).filter(|dir| {
                body.or_else(|| kids.iter().copied().find(|b| b.kind() == "do_group"))
                    .is_some_and(|b| super::ls_loop::uses_are_under(self.text(b), &var, dir))
            });
            if let Some(m) = listed
                .filter(|_| per_entry)
                .and_then(|_| super::ls_loop::marker(&var))
            {
                alts.push(Alt::plain(m.word.clone()));
                markers.push(m);
                continue;
            }
            // The glob must be written in the loop's header: a variable that holds one
            // (`for t in $templates`) was gathered by a loop before, maybe sorted by it.
            // A variable assigned the glob as text (`dir="${PWD}/jobs/*"; for p in ${dir}`)
            // holds it as written too.
            let written = self.text(*k).contains(['*', '?', '[']) || self.written_glob(*k, env);
            for e in self.expand(*k, env, false) {
                for f in e.fields {
                    let word = match (per_entry && written)
                        .then(|| super::glob_loop::marker(&var, &f, env.nullglob))
                        .flatten()
                    {
                        Some(m) => {
                            let w = m.word.clone();
                            markers.push(m);
                            w
                        }
                        None => f,
                    };
                    alts.push(Alt {
                        word,
                        when: e.when.clone(),
                    });
                }
            }
        }
        if alts.is_empty() {
            alts.push(Alt::plain(Word::unknown(format!("${var}"))));
        }
        env.set(&var, alts);
        if let Some(b) = body {
            let mut inner = env.clone();
            self.stmt(b, &mut inner);
            *env = Env::merge(env, vec![(inner, Vec::new()), (env.clone(), Vec::new())]);
        }
        super::glob_loop::restore(env, &markers);
    }

    /// Whether `n` is a lone variable (`$dir`, `${dir}`) whose every value is a glob written
    /// as text in an assignment: its glob characters are all in the assigned text, none in a
    /// value gathered from a glob's entries (see `glob_loop::assigned_glob`).
    fn written_glob(&self, n: Node<'t>, env: &Env) -> bool {
        let text = self.text(n);
        let name = text
            .strip_prefix("${")
            .and_then(|t| t.strip_suffix('}'))
            .or_else(|| text.strip_prefix('$'));
        let Some(name) = name
            .filter(|v| !v.is_empty() && v.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'))
        else {
            return false;
        };
        env.get(name).is_some_and(|alts| {
            !alts.is_empty()
                && alts
                    .iter()
                    .all(|a| super::glob_loop::assigned_glob(&a.word))
        })
    }

    /// Whether a loop's body sorts its entries into variables: it branches on a `case` or a
    /// string comparison (`[[ "$name" == buildpack ]]`) and gathers values in a variable
    /// (`libraries="${libraries} -f ${FILE}"`, `x+=…`) that a later command reads whole.
    /// The linter decides such tests per entry (`entry_tests.rs`), but a variable gathered
    /// over the loop stands for the whole glob only without the entry's marker, so such a
    /// loop is left as one command over the whole glob (a loop that sorts a glob's files
    /// into libraries and templates with `case`, then renders each template with the
    /// libraries in a second loop: librocco/librocco, round eight).
    fn sorts_entries(&self, body: Node<'t>) -> bool {
        let mut stack = vec![body];
        let mut branches = false;
        let mut gathers = false;
        let mut steps = 0usize;
        while let Some(n) = stack.pop() {
            steps += 1;
            if steps > super::shell::MAX_SCRIPT {
                return true;
            }
            match n.kind() {
                "case_statement" => branches = true,
                "test_command" => {
                    let text = self.text(n);
                    if ["==", "!=", " = ", "=~", " -eq ", " -ne "]
                        .iter()
                        .any(|op| text.contains(op))
                    {
                        branches = true;
                    }
                }
                "variable_assignment" => gathers |= self.gathers(n),
                _ => {}
            }
            let mut c = n.walk();
            stack.extend(n.named_children(&mut c));
        }
        branches && gathers
    }

    /// Whether an assignment adds to its variable's value (`x+=…`, `x="$x …"`).
    fn gathers(&self, n: Node<'t>) -> bool {
        let text = self.text(n);
        let Some((name, value)) = text.split_once('=') else {
            return false;
        };
        if name.ends_with('+') {
            return true;
        }
        let name = name.trim();
        !name.is_empty()
            && (value.contains(&format!("${{{name}}}"))
                || value.match_indices(&format!("${name}")).any(|(i, m)| {
                    !value[i + m.len()..]
                        .starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_')
                }))
    }

    pub(super) fn case_statement(&mut self, n: Node<'t>, env: &mut Env) {
        let mut c = n.walk();
        let items: Vec<Node> = n
            .named_children(&mut c)
            .filter(|k| k.kind() == "case_item")
            .collect();
        // A `case` over a loop's entry is decided per entry: each arm under its patterns.
        let arms = self.case_arms(n, &items, env);
        let mut branches = Vec::new();
        for (i, item) in items.iter().enumerate() {
            let mut benv = env.clone();
            let mut c2 = item.walk();
            let stmts: Vec<Node> = item.named_children(&mut c2).collect();
            let when = arms
                .as_ref()
                .and_then(|a| a.get(i).cloned())
                .unwrap_or_default();
            let depth = self.guards.len();
            self.guards.extend(when.iter().cloned());
            // The patterns come first; statements follow (a pattern is never a statement kind
            // the walk acts on).
            for s in stmts {
                self.stmt(s, &mut benv);
            }
            self.guards.truncate(depth);
            branches.push((benv, when));
        }
        let none = arms
            .as_ref()
            .and_then(|a| a.last())
            .map(|last| {
                let mut w: Vec<Cond> = last[..last.len().saturating_sub(1)].to_vec();
                w.extend(last.last().map(Cond::negated));
                w
            })
            .unwrap_or_default();
        branches.push((env.clone(), none));
        *env = Env::merge(env, branches);
    }
}
