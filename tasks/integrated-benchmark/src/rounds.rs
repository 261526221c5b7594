//! Interleaved timing: every tool runs once per round, and the order turns
//! by one each round.
//!
//! hyperfine times its commands one after another (all of pacquet's runs,
//! then all of pnpm's, ...). On ext4 the cost of creating files depends on
//! what was created and deleted in the last minutes: creating the same
//! 19,200 files took 0.7 to 4.0 s of system time, and a cold install's
//! system time swung by ±20 % between runs (benchmarks/results/README.md).
//! A tool timed in a block of its own sees another disk than the others.
//! Each round here is one hyperfine run of one run per tool, in a rotated
//! order; the rounds' exports are then merged into one export of
//! hyperfine's shape, which the report reads.

use serde_json::{Map, Value, json};

/// The order of the `n` tools in round `round`: round 0 keeps the given
/// order, round 1 starts with the second tool, and so on.
pub fn order(round: u32, n: usize) -> Vec<usize> {
    let start = if n == 0 { 0 } else { round as usize % n };
    (0..n).map(|i| (start + i) % n).collect()
}

/// Merges hyperfine exports of one run per command into one export with
/// the results in `names` order. A command missing from a round, or timed
/// more than once in it, is an error: every round must time every tool.
pub fn merge(names: &[String], rounds: &[Value]) -> Result<Value, String> {
    let mut per_name: Vec<Runs> = names.iter().map(|_| Runs::default()).collect();
    // Numbered from 1, as the harness's log numbers the timed rounds.
    for (index, round) in (1..).zip(rounds) {
        let results = round
            .get("results")
            .and_then(Value::as_array)
            .ok_or_else(|| format!("round {index}: no results"))?;
        let mut seen = vec![false; names.len()];
        for result in results {
            let name = result.get("command").and_then(Value::as_str).unwrap_or("");
            let Some(slot) = names.iter().position(|n| n == name) else {
                return Err(format!("round {index}: unknown command {name:?}"));
            };
            if std::mem::replace(&mut seen[slot], true) {
                return Err(format!("round {index}: {name:?} timed twice"));
            }
            per_name[slot].push(index, result)?;
        }
        if let Some(missing) = seen.iter().position(|s| !s) {
            return Err(format!("round {index}: {:?} was not timed", names[missing]));
        }
    }
    let results: Vec<Value> = names
        .iter()
        .zip(&per_name)
        .map(|(name, runs)| runs.summary(name))
        .collect();
    Ok(json!({ "results": results }))
}

/// One tool's runs across rounds.
#[derive(Default)]
struct Runs {
    times: Vec<f64>,
    user: Vec<f64>,
    system: Vec<f64>,
    exit_codes: Vec<Value>,
}

impl Runs {
    /// Takes the run of one round's result (hyperfine's `user` and
    /// `system` are means, which for one run are that run's).
    fn push(&mut self, round: u32, result: &Value) -> Result<(), String> {
        let times = result
            .get("times")
            .and_then(Value::as_array)
            .filter(|t| t.len() == 1)
            .ok_or_else(|| format!("round {round}: expected exactly one time per command"))?;
        let num = |v: Option<&Value>| v.and_then(Value::as_f64).unwrap_or(f64::NAN);
        self.times.push(num(times.first()));
        self.user.push(num(result.get("user")));
        self.system.push(num(result.get("system")));
        let code = result
            .get("exit_codes")
            .and_then(Value::as_array)
            .and_then(|c| c.first())
            .cloned()
            .unwrap_or(Value::Null);
        self.exit_codes.push(code);
        Ok(())
    }

    /// hyperfine's fields for these runs, plus each run's user and system
    /// time (`user_times`, `system_times`), which hyperfine does not keep.
    fn summary(&self, name: &str) -> Value {
        let mut out = Map::new();
        out.insert("command".into(), json!(name));
        out.insert("mean".into(), json!(mean(&self.times)));
        out.insert("stddev".into(), json!(stddev(&self.times)));
        out.insert("median".into(), json!(median(&self.times)));
        out.insert("user".into(), json!(mean(&self.user)));
        out.insert("system".into(), json!(mean(&self.system)));
        out.insert("min".into(), json!(fold(&self.times, f64::min)));
        out.insert("max".into(), json!(fold(&self.times, f64::max)));
        out.insert("times".into(), json!(self.times));
        out.insert("user_times".into(), json!(self.user));
        out.insert("system_times".into(), json!(self.system));
        out.insert("exit_codes".into(), Value::Array(self.exit_codes.clone()));
        Value::Object(out)
    }
}

fn mean(xs: &[f64]) -> Option<f64> {
    (!xs.is_empty()).then(|| xs.iter().sum::<f64>() / xs.len() as f64)
}

/// Sample standard deviation, as hyperfine reports it (none for one run).
fn stddev(xs: &[f64]) -> Option<f64> {
    let m = mean(xs)?;
    (xs.len() >= 2).then(|| {
        let ss: f64 = xs.iter().map(|x| (x - m) * (x - m)).sum();
        (ss / (xs.len() - 1) as f64).sqrt()
    })
}

/// The middle value; for an even count the mean of the two middle ones.
pub(crate) fn median(xs: &[f64]) -> Option<f64> {
    if xs.is_empty() {
        return None;
    }
    let mut sorted = xs.to_vec();
    sorted.sort_by(f64::total_cmp);
    let mid = sorted.len() / 2;
    Some(if sorted.len().is_multiple_of(2) {
        (sorted[mid - 1] + sorted[mid]) / 2.0
    } else {
        sorted[mid]
    })
}

fn fold(xs: &[f64], f: fn(f64, f64) -> f64) -> Option<f64> {
    xs.iter().copied().reduce(f)
}

#[cfg(test)]
mod tests;
