//! `@ytt:version`: `require_at_least(version)` fails unless the ytt version yttlint stands in
//! for is at least `version` (a semantic version such as `0.38.0`).

use regex::Regex;
use starlark::environment::GlobalsBuilder;
use starlark::starlark_module;
use starlark::values::none::NoneType;

use super::args::{as_str, err, exactly_one, Args};

/// The ytt release whose behaviour yttlint follows.
pub const YTT_VERSION: &str = "0.52.0";

/// semver.org's pattern, as ytt checks it.
const SEMVER: &str = r"^(?P<major>0|[1-9]\d*)\.(?P<minor>0|[1-9]\d*)\.(?P<patch>0|[1-9]\d*)(?:-(?P<prerelease>(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\+(?P<buildmetadata>[0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?$";

/// The numbers of a version.
fn parts(v: &str) -> Result<[u64; 3], String> {
    let re = Regex::new(SEMVER).map_err(|e| e.to_string())?;
    let caps = re
        .captures(v)
        .ok_or_else(|| format!("version string '{v}' must be a valid semver"))?;
    let mut nums = [0u64; 3];
    for (n, name) in nums.iter_mut().zip(["major", "minor", "patch"]) {
        let text = caps.name(name).map_or("", |m| m.as_str());
        *n = text
            .parse()
            .map_err(|_| format!("Error parsing version: {v}"))?;
    }
    Ok(nums)
}

/// Whether release `have` satisfies `>= want` (a pre-release of `have` is older than it, so
/// only the numbers matter).
pub fn at_least(have: &str, want: &str) -> Result<bool, String> {
    Ok(parts(have)? >= parts(want)?)
}

#[starlark_module]
pub fn register(builder: &mut GlobalsBuilder) {
    fn require_at_least(#[starlark(args)] args: Args<'_>) -> starlark::Result<NoneType> {
        const NAME: &str = "version.require_at_least";
        let want = as_str(NAME, exactly_one(NAME, &args.items)?)?;
        if !at_least(YTT_VERSION, want).map_err(|m| err(NAME, m))? {
            return Err(err(
                NAME,
                format!(
                    "ytt version '{YTT_VERSION}' does not meet the minimum required version '{want}'"
                ),
            ));
        }
        Ok(NoneType)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compares_release_versions() {
        assert_eq!(at_least("0.52.0", "0.0.0"), Ok(true));
        assert_eq!(at_least("0.52.0", "0.52.0"), Ok(true));
        assert_eq!(at_least("0.52.0", "0.52.0-rc.1"), Ok(true));
        assert_eq!(at_least("0.52.0", "0.52.1"), Ok(false));
        assert_eq!(at_least("0.52.0", "1000000.0.0"), Ok(false));
        assert_eq!(
            at_least("0.52.0", "v1"),
            Err("version string 'v1' must be a valid semver".to_string())
        );
    }
}
