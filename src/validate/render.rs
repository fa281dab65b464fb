//! ytt's text for failed validations ("Validating final data values:" follows with these).

use super::Invalidation;

/// Each invalid value with its rules: `  path\n    from: file:line\n    - must be: ... (by:
/// file:line)\n      found: ...\n\n`.
pub fn render(invalid: &[Invalidation]) -> String {
    let mut out = String::new();
    for inv in invalid {
        out.push_str(&format!(
            "  {}\n    from: {}\n",
            inv.path,
            inv.value_pos.as_compact()
        ));
        for v in &inv.violations {
            out.push_str(&format!(
                "    - must be: {} (by: {})\n",
                v.description,
                v.rule_pos.as_compact()
            ));
            if !v.found.is_empty() {
                out.push_str(&format!("      found: {}\n", v.found));
            }
        }
        out.push('\n');
    }
    out
}
