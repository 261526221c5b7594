//! Markdown table, raw JSON and SVG bar chart of one scenario.

use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};

use crate::commit::{self, Commit};
use crate::machine::Machine;
use crate::setup::ToolKind;
use crate::{Args, Result, Scenario};

pub struct Row {
    pub name: String,
    pub kind: ToolKind,
    pub command: String,
    pub prepare: String,
    pub version: String,
    /// The pacquet commit measured (`None` for other tools and prebuilt binaries).
    pub commit: Option<Commit>,
    pub median: f64,
    pub mean: f64,
    pub stddev: f64,
    pub min: f64,
    pub max: f64,
    /// Median user and system CPU time per run: a cold install is mostly
    /// system time, and where the CPU goes is half of every comparison.
    pub user: f64,
    pub system: f64,
}

impl Row {
    pub fn new(
        name: String,
        kind: ToolKind,
        command: String,
        prepare: String,
        version: String,
    ) -> Row {
        Row {
            name,
            kind,
            command,
            prepare,
            version,
            commit: None,
            median: f64::NAN,
            mean: f64::NAN,
            stddev: f64::NAN,
            min: f64::NAN,
            max: f64::NAN,
            user: f64::NAN,
            system: f64::NAN,
        }
    }
}

/// Reads hyperfine's `--export-json` output into the rows (same order).
pub fn fill_times(json: &Path, rows: &mut [Row]) -> Result<()> {
    let text = fs::read_to_string(json).map_err(|e| format!("{}: {e}", json.display()))?;
    let doc: serde_json::Value =
        serde_json::from_str(&text).map_err(|e| format!("{}: {e}", json.display()))?;
    let results = doc
        .get("results")
        .and_then(|r| r.as_array())
        .ok_or("hyperfine JSON has no results")?;
    if results.len() != rows.len() {
        return Err(format!(
            "hyperfine reported {} results for {} commands",
            results.len(),
            rows.len()
        ));
    }
    for (row, result) in rows.iter_mut().zip(results) {
        let num = |key: &str| result.get(key).and_then(|v| v.as_f64()).unwrap_or(f64::NAN);
        row.median = num("median");
        row.mean = num("mean");
        row.stddev = num("stddev");
        row.min = num("min");
        row.max = num("max");
        // Per-run times (`rounds`); hyperfine's own fields are means.
        let per_run = |key: &str, mean: &str| {
            result
                .get(key)
                .and_then(|v| v.as_array())
                .map(|xs| xs.iter().filter_map(|x| x.as_f64()).collect::<Vec<_>>())
                .and_then(|xs| crate::rounds::median(&xs))
                .unwrap_or_else(|| num(mean))
        };
        row.user = per_run("user_times", "user");
        row.system = per_run("system_times", "system");
    }
    Ok(())
}

pub struct Report<'a> {
    pub dir: &'a Path,
    pub fixture: &'a str,
    pub scenario: Scenario,
    pub args: &'a Args,
    pub rows: &'a [Row],
    pub notes: &'a [String],
    pub machine: &'a Machine,
    pub work: &'a Path,
    pub repo: &'a Path,
    pub hyperfine_json: &'a Path,
    /// When the scenario finished (`utc_now`).
    pub date: &'a str,
}

impl Report<'_> {
    /// `pacquet @ 63211bc-dirty`, or every measured pacquet's label.
    fn pacquet_heading(&self) -> Option<String> {
        let pacquets: Vec<(&str, Option<&Commit>)> = self
            .rows
            .iter()
            .filter(|row| row.kind == ToolKind::Pacquet)
            .map(|row| (row.name.as_str(), row.commit.as_ref()))
            .collect();
        commit::heading(&pacquets)
    }
}

/// Writes `<dir>/<scenario>.{md,json,svg}` and returns the Markdown path.
pub fn write(r: &Report) -> Result<PathBuf> {
    fs::create_dir_all(r.dir).map_err(|e| format!("{}: {e}", r.dir.display()))?;
    let name = r.scenario.name();
    let md = r.dir.join(format!("{name}.md"));
    let json = r.dir.join(format!("{name}.json"));
    let svg = r.dir.join(format!("{name}.svg"));
    let raw = fs::read_to_string(r.hyperfine_json)
        .map_err(|e| format!("{}: {e}", r.hyperfine_json.display()))?;
    let hyperfine: serde_json::Value =
        serde_json::from_str(&raw).map_err(|e| format!("{}: {e}", r.hyperfine_json.display()))?;
    let text = serde_json::to_string_pretty(&with_provenance(r, hyperfine))
        .map_err(|e| e.to_string())?
        + "\n";
    fs::write(&json, text).map_err(|e| format!("{}: {e}", json.display()))?;
    fs::write(&svg, chart(r)).map_err(|e| format!("{}: {e}", svg.display()))?;
    fs::write(&md, markdown(r)).map_err(|e| format!("{}: {e}", md.display()))?;
    Ok(md)
}

/// hyperfine's export (whose `command` fields are the row labels) with a
/// leading `benchmark` object: what was measured, when and where.
fn with_provenance(r: &Report, hyperfine: serde_json::Value) -> serde_json::Value {
    let pacquet: Vec<serde_json::Value> = r
        .rows
        .iter()
        .filter(|row| row.kind == ToolKind::Pacquet)
        .map(|row| {
            serde_json::json!({
                "label": row.name,
                "version": row.version,
                "revision": row.commit.as_ref().map(|c| c.revision.as_str()),
                "commit": row.commit.as_ref().map(|c| c.describe.as_str()),
                "sha": row.commit.as_ref().and_then(|c| c.sha.as_deref()),
            })
        })
        .collect();
    let mut out = serde_json::Map::new();
    out.insert(
        "benchmark".into(),
        serde_json::json!({
            "fixture": r.fixture,
            "scenario": r.scenario.name(),
            "heading": r.pacquet_heading(),
            "date": r.date,
            "machine": r.machine.one_line(),
            "hyperfine": r.machine.hyperfine,
            "load": r.machine.load,
            "pacquet": pacquet,
        }),
    );
    match hyperfine {
        serde_json::Value::Object(map) => out.extend(map),
        other => {
            out.insert("hyperfine_export".into(), other);
        }
    }
    serde_json::Value::Object(out)
}

/// The `just bench` arguments that repeat this scenario.
fn invocation(r: &Report) -> String {
    let hoisted = r.args.node_linker == crate::NodeLinker::Hoisted;
    let fixture = match r.fixture.strip_suffix("-hoisted") {
        Some(base) if hoisted => base,
        _ => r.fixture,
    };
    let mut s = format!(
        "just bench --scenario {} --fixture {fixture}",
        r.scenario.name()
    );
    if hoisted {
        s.push_str(" --node-linker hoisted");
    }
    let revisions = &r.args.revision;
    if r.args.no_pacquet {
        s.push_str(" --no-pacquet");
    } else if revisions.len() != 1 || revisions[0] != commit::WORKING_TREE {
        s.push_str(&format!(" --revision {}", revisions.join(",")));
    }
    s
}

fn pnpm_median(rows: &[Row]) -> Option<f64> {
    rows.iter()
        .find(|r| r.kind == ToolKind::Pnpm)
        .map(|r| r.median)
}

fn markdown(r: &Report) -> String {
    let mut s = String::new();
    let name = r.scenario.name();
    md_heading(&mut s, r);
    md_method(&mut s, r);
    md_table(&mut s, r.rows);
    let _ = writeln!(s, "\n![{} {name}]({name}.svg)\n", r.fixture);
    md_notes(&mut s, r.notes, r.work);
    md_commands(&mut s, r.rows, r.work, r.repo);
    md_machine(&mut s, r.machine);
    s
}

/// The title, then what was measured (each pacquet's commit), when and where.
fn md_heading(s: &mut String, r: &Report) {
    let name = r.scenario.name();
    match r.pacquet_heading() {
        Some(heading) => {
            let _ = writeln!(s, "# {}: {name} — {heading}\n", r.fixture);
        }
        None => {
            let _ = writeln!(s, "# {}: {name}\n", r.fixture);
        }
    }
    for row in r.rows.iter().filter(|row| row.kind == ToolKind::Pacquet) {
        match &row.commit {
            Some(commit) => {
                let _ = writeln!(s, "- {}: {}", row.name, commit.provenance());
            }
            None => {
                let _ = writeln!(
                    s,
                    "- {}: a prebuilt binary (`{}`); its commit is unknown",
                    row.name, row.version
                );
            }
        }
    }
    let _ = writeln!(s, "- Date: {}", r.date);
    let _ = writeln!(s, "- Machine: {}\n", r.machine.one_line());
}

/// What the scenario is and how it was timed.
fn md_method(s: &mut String, r: &Report) {
    let _ = writeln!(s, "{}\n", r.scenario.describe());
    let _ = writeln!(
        s,
        "Measured with `{}`: {} timed runs per tool after {} warm-up run(s), {}, \
         interleaved: each round runs every tool once, and the order turns by one tool each round. \
         Times in seconds; \"User + Sys\" is the median CPU time per run in user space and in the kernel; \"vs pnpm\" is the median divided by pnpm's median (below 1 = faster than pnpm).\n",
        invocation(r),
        r.args.runs,
        r.args.warmup,
        r.machine.hyperfine
    );
}

/// One line of times per row, with its ratio to pnpm's median.
fn md_table(s: &mut String, rows: &[Row]) {
    let _ = writeln!(
        s,
        "| Tool | Median [s] | Mean ± σ [s] | Min [s] | Max [s] | User + Sys [s] | vs pnpm |"
    );
    let _ = writeln!(s, "|:---|---:|---:|---:|---:|---:|---:|");
    let base = pnpm_median(rows);
    for row in rows {
        let ratio = match base {
            Some(b) if b > 0.0 => format!("{:.2}×", row.median / b),
            _ => "–".into(),
        };
        let _ = writeln!(
            s,
            "| {} | **{:.3}** | {:.3} ± {:.3} | {:.3} | {:.3} | {:.3} + {:.3} | {} |",
            row.name,
            row.median,
            row.mean,
            row.stddev,
            row.min,
            row.max,
            row.user,
            row.system,
            ratio
        );
    }
}

/// The notes (dropped tools, variants), with the scratch dir as `$WORK`;
/// nothing when there are none.
fn md_notes(s: &mut String, notes: &[String], work: &Path) {
    if notes.is_empty() {
        return;
    }
    let _ = writeln!(s, "## Notes\n");
    for note in notes {
        let _ = writeln!(s, "- {}", note.replace(&*work.to_string_lossy(), "$WORK"));
    }
    let _ = writeln!(s);
}

/// Every row's command and preparation, with machine paths as `$WORK` and
/// `$REPO`.
fn md_commands(s: &mut String, rows: &[Row], work: &Path, repo: &Path) {
    let _ = writeln!(s, "## Commands\n");
    let _ = writeln!(
        s,
        "`$REPO` is the checkout, `$WORK` the harness's scratch dir (`benchmarks/work`). Each tool has its own copy of the \
         fixture, its own store and its own `.npmrc` (`registry=` the loopback mirror registry); \
         `pnpm-workspace.yaml` gets `storeDir`, `cacheDir` and (except in the `-verified` scenarios) \
         `trustLockfile: true`. \
         Preparation renames old trees into a trash dir that is deleted after the run, \
         then runs `sync` so no timed run pays for writing back an earlier one.\n"
    );
    let strip = |t: &str| {
        t.replace(&*work.to_string_lossy(), "$WORK")
            .replace(&*repo.to_string_lossy(), "$REPO")
    };
    for row in rows {
        let _ = writeln!(s, "- **{}** ({})", row.name, row.version);
        let _ = writeln!(s, "  - command: `{}`", strip(&row.command));
        let _ = writeln!(s, "  - prepare: `{}`", strip(&row.prepare));
    }
}

/// The hardware the numbers come from, and how busy it was.
fn md_machine(s: &mut String, m: &Machine) {
    let _ = writeln!(s, "\n## Machine\n");
    let _ = writeln!(s, "- CPU: {} × {}", m.cores, m.cpu);
    let _ = writeln!(s, "- Memory: {}", m.memory);
    let _ = writeln!(s, "- Filesystem of the work dir: {}", m.filesystem);
    let _ = writeln!(s, "- Kernel: Linux {}", m.kernel);
    let _ = writeln!(
        s,
        "- Load average (1, 5, 15 min) before the check runs: {} (the machine was not otherwise idle if this is well above 0)",
        m.load
    );
}

pub fn utc_now() -> String {
    std::process::Command::new("date")
        .args(["-u", "+%Y-%m-%d %H:%M UTC"])
        .output()
        .ok()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_default()
}

fn color(kind: ToolKind) -> &'static str {
    match kind {
        ToolKind::Pacquet => "#e8590c",
        ToolKind::Pnpm => "#f9ad00",
        ToolKind::Bun => "#c2185b",
        ToolKind::Floor => "#868e96",
    }
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// Room for the longest row label at 13px sans-serif (about 7px a
/// character), at least the 230px the short tool names need.
fn label_width<'a>(labels: impl Iterator<Item = &'a str>) -> f64 {
    let longest = labels.map(|l| l.chars().count()).max().unwrap_or(0);
    (longest as f64 * 7.0 + 20.0).max(230.0).ceil()
}

/// Chart geometry in px: the bar column (the label column is sized to the
/// labels), the value column after it, one row per tool, and the margins
/// above (title) and below (axis, machine).
const BAR_W: f64 = 470.0;
const VALUE_W: f64 = 90.0;
const ROW_H: f64 = 34.0;
const TOP: f64 = 56.0;
const BOTTOM: f64 = 50.0;

/// Horizontal bars of the medians, with a min–max whisker.
fn chart(r: &Report) -> String {
    let label_w = label_width(r.rows.iter().map(|row| row.name.as_str()));
    let width = label_w + BAR_W + VALUE_W;
    let height = TOP + ROW_H * r.rows.len() as f64 + BOTTOM;
    let max = r
        .rows
        .iter()
        .map(|row| row.max.max(row.median))
        .filter(|v| v.is_finite())
        .fold(0.0_f64, f64::max);
    let scale = if max > 0.0 { BAR_W / max } else { 0.0 };
    let mut s = String::new();
    svg_title(&mut s, r, width, height);
    for (i, row) in r.rows.iter().enumerate() {
        svg_bar(&mut s, row, TOP + ROW_H * i as f64, label_w, scale);
    }
    let axis_y = TOP + ROW_H * r.rows.len() as f64 + 4.0;
    svg_axis(&mut s, label_w, axis_y, max);
    let _ = writeln!(
        s,
        r##"<text x="10" y="{}" font-size="11" fill="#495057">{}</text>"##,
        axis_y + 36.0,
        escape(&r.machine.one_line())
    );
    s.push_str("</svg>\n");
    s
}

/// The `<svg>` element on a white background, the title and the subtitle
/// (what was measured, and when).
fn svg_title(s: &mut String, r: &Report, width: f64, height: f64) {
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="13">"#
    );
    let _ = writeln!(
        s,
        r#"<rect width="{width}" height="{height}" fill="white"/>"#
    );
    let _ = writeln!(
        s,
        r#"<text x="10" y="24" font-size="16" font-weight="bold">{}: {} (median of {} runs, seconds; whisker = min–max)</text>"#,
        escape(r.fixture),
        r.scenario.name(),
        r.args.runs
    );
    let subtitle = match r.pacquet_heading() {
        Some(heading) => format!("{heading} · {}", r.date),
        None => r.date.to_string(),
    };
    let _ = writeln!(
        s,
        r##"<text x="10" y="42" font-size="12" fill="#495057">{}</text>"##,
        escape(&subtitle)
    );
}

/// One row starting at `y`: label, median bar, min–max whisker (when both
/// are known) and the median in figures.
fn svg_bar(s: &mut String, row: &Row, y: f64, label_w: f64, scale: f64) {
    let mid = y + ROW_H / 2.0;
    let w = (row.median * scale).max(1.0);
    let _ = writeln!(
        s,
        r#"<text x="{}" y="{}" text-anchor="end">{}</text>"#,
        label_w - 10.0,
        mid + 4.5,
        escape(&row.name)
    );
    let _ = writeln!(
        s,
        r#"<rect x="{label_w}" y="{}" width="{w:.1}" height="{}" fill="{}"/>"#,
        y + 6.0,
        ROW_H - 12.0,
        color(row.kind)
    );
    if row.min.is_finite() && row.max.is_finite() {
        let (x1, x2) = (label_w + row.min * scale, label_w + row.max * scale);
        let _ = writeln!(
            s,
            r##"<path d="M{x1:.1} {mid} H{x2:.1} M{x1:.1} {} V{} M{x2:.1} {} V{}" stroke="#212529" stroke-width="1.2" fill="none"/>"##,
            mid - 5.0,
            mid + 5.0,
            mid - 5.0,
            mid + 5.0
        );
    }
    let _ = writeln!(
        s,
        r#"<text x="{}" y="{}">{:.3} s</text>"#,
        label_w + BAR_W + 8.0,
        mid + 4.5,
        row.median
    );
}

/// The zero line left of the bars, from `TOP` down to `axis_y`, with 0 and
/// `max` seconds marked under it.
fn svg_axis(s: &mut String, label_w: f64, axis_y: f64, max: f64) {
    let _ = writeln!(
        s,
        r##"<line x1="{label_w}" y1="{TOP}" x2="{label_w}" y2="{axis_y}" stroke="#495057"/>"##
    );
    let _ = writeln!(
        s,
        r##"<text x="{label_w}" y="{}" fill="#495057">0</text><text x="{}" y="{}" text-anchor="end" fill="#495057">{max:.2} s</text>"##,
        axis_y + 16.0,
        label_w + BAR_W,
        axis_y + 16.0
    );
}

#[cfg(test)]
mod tests;
