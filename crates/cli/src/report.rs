//! Error output in pnpm 12's shape: `Error: <CODE>`, a blank line, then a
//! miette report whose headline is the operation that failed.

use std::fmt;

use miette::{Diagnostic, GraphicalReportHandler, GraphicalTheme};

/// Wraps a failure as the cause of "installing dependencies", like pnpm 12.
/// The cause is the error `source`, not a related diagnostic, so miette
/// prints its message after `╰─▶` as pnpm does instead of a nested report
/// repeating the code.
#[derive(Debug)]
pub struct OperationFailed<'a> {
    pub operation: &'static str,
    pub cause: &'a (dyn Diagnostic + 'static),
}

impl fmt::Display for OperationFailed<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.operation)
    }
}

impl std::error::Error for OperationFailed<'_> {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(self.cause)
    }
}

impl Diagnostic for OperationFailed<'_> {
    fn help<'b>(&'b self) -> Option<Box<dyn fmt::Display + 'b>> {
        self.cause.help()
    }
}

/// Finds the first pnpm-style code in the cause chain.
pub fn error_code(err: &dyn Diagnostic) -> Option<String> {
    let mut current = Some(err);
    while let Some(d) = current {
        if let Some(code) = d.code() {
            return Some(code.to_string());
        }
        current = d.diagnostic_source();
    }
    None
}

/// Renders `err` as pnpm 12 does, ready for stderr. Lines wrap at 80 columns
/// unless stderr is a terminal, where the terminal width is used.
pub fn render(operation: &'static str, err: &(dyn Diagnostic + 'static), is_tty: bool) -> String {
    let mut out = code_line(err);
    let theme = theme(is_tty);
    let handler = GraphicalReportHandler::new_themed(theme).with_width(80);
    let wrapped = OperationFailed {
        operation,
        cause: err,
    };
    // Rendering into a String cannot fail.
    let _ = handler.render_report(&mut out, &wrapped);
    out
}

/// Renders `err` with its own message as the headline, as pnpm 12 does for
/// `store` commands (`× Packages in the store have been mutated`).
pub fn render_plain(err: &dyn Diagnostic, is_tty: bool) -> String {
    let mut out = code_line(err);
    let theme = theme(is_tty);
    let handler = GraphicalReportHandler::new_themed(theme)
        .with_width(80)
        .without_cause_chain();
    // Rendering into a String cannot fail.
    let _ = handler.render_report(&mut out, &Uncoded(err));
    out
}

/// `err` without its code, which the first line already shows.
#[derive(Debug)]
struct Uncoded<'a>(&'a dyn Diagnostic);

impl fmt::Display for Uncoded<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self.0, f)
    }
}

impl std::error::Error for Uncoded<'_> {}

impl Diagnostic for Uncoded<'_> {
    fn help<'b>(&'b self) -> Option<Box<dyn fmt::Display + 'b>> {
        self.0.help()
    }
}

/// One `{"name":"pnpm","level":"error",…}` line for `--reporter=ndjson`.
pub fn render_ndjson(err: &dyn Diagnostic) -> String {
    serde_json::json!({
        "name": "pnpm",
        "level": "error",
        "code": error_code(err).unwrap_or_default(),
        "message": err.to_string(),
    })
    .to_string()
}

/// `Error: <code>` and a blank line, as pnpm 12 starts an error; empty
/// without a code.
fn code_line(err: &dyn Diagnostic) -> String {
    error_code(err).map_or_else(String::new, |code| format!("Error: {code}\n\n"))
}

fn theme(is_tty: bool) -> GraphicalTheme {
    if is_tty {
        GraphicalTheme::unicode()
    } else {
        GraphicalTheme::unicode_nocolor()
    }
}
