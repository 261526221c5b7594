//! `pacquet`: a thin CLI over the install pipeline. It parses arguments,
//! builds the tokio runtime and the rayon pool once, loads settings, runs the
//! command and renders errors the way pnpm 12 does (exit code 1).

mod args;
mod commands;
mod descriptors;
mod durations;
mod report;
mod reporter;
mod setting_flags;

use std::{io::IsTerminal, process::ExitCode};

use crate::args::{Cli, Command, Reporter};

// glibc's malloc spent ~15% of a lockfile-change install (alotta) in
// malloc/free and grew its arenas by ~1,400 mprotect calls: mimalloc took
// that install from 53 ms to 44 ms (median, same hyperfine run). It is
// built without its 4 MiB large pages (`.cargo/config.toml` says why).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    // One command per process: what it is done with is freed by the exit.
    pacquet_teardown::exit_frees();
    descriptors::reserve();
    let cli = Cli::parse_with_config();
    init_tracing(cli.reporter.unwrap_or(Reporter::Default));
    let _ = rustls::crypto::ring::default_provider().install_default();

    // Linking is bound by filesystem syscalls, which block in the kernel; more
    // threads than cores keep the disk queue full.
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get()) * 2;
    if let Err(err) = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build_global()
    {
        eprintln!("failed to start the thread pool: {err}");
        return ExitCode::FAILURE;
    }
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(err) => {
            eprintln!("failed to start the async runtime: {err}");
            return ExitCode::FAILURE;
        }
    };

    let result = match &cli.command {
        Command::Install(args) => commands::install::run(&cli, args, runtime.handle()),
        Command::Fetch(args) => commands::fetch::run(&cli, args, runtime.handle()),
        Command::Store(args) => commands::store::run(&cli, args),
        Command::Deploy(args) => commands::deploy::run(&cli, args, runtime.handle()),
        Command::Add(args) => commands::edit::add(&cli, args, runtime.handle()),
        Command::Remove(args) => commands::edit::remove(&cli, args, runtime.handle()),
        Command::Update(args) => commands::edit::update(&cli, args, runtime.handle()),
    };
    // pnpm 12 heads install and fetch errors with the operation; store
    // commands print their error as the headline.
    let operation = match &cli.command {
        Command::Install(_) => Some("installing dependencies"),
        Command::Fetch(_) => Some("fetching dependencies"),
        Command::Deploy(_) => Some("deploying"),
        Command::Add(_) | Command::Remove(_) | Command::Update(_) => {
            Some("installing dependencies")
        }
        Command::Store(_) => None,
    };

    skip_heap_collection_at_exit();
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            let out = match commands::settings::effective_reporter(&cli) {
                Reporter::Ndjson => report::render_ndjson(err.as_ref()) + "\n",
                _ => {
                    let tty = std::io::stderr().is_terminal();
                    match operation {
                        Some(operation) => report::render(operation, err.as_ref(), tty),
                        None => report::render_plain(err.as_ref(), tty),
                    }
                }
            };
            eprint!("{out}");
            ExitCode::FAILURE
        }
    }
}

/// `mi_option_destroy_on_exit` of mimalloc 3's `mi_option_e`
/// (`mimalloc.h`), which `libmimalloc-sys` does not name.
const MI_OPTION_DESTROY_ON_EXIT: libmimalloc_sys::mi_option_t = 22;

/// mimalloc's exit handler collects every heap, returning freed pages to
/// the OS one `madvise` at a time (~350 after a lockfile-change install of
/// alotta, ~2 % of its CPU); the process is about to end and the kernel
/// takes everything back anyway. A value above 1 makes the handler return
/// at once (`_mi_auto_process_done`).
fn skip_heap_collection_at_exit() {
    // SAFETY: sets a plain option value, read by the exit handler.
    unsafe { libmimalloc_sys::mi_option_set(MI_OPTION_DESTROY_ON_EXIT, 2) }
}

fn init_tracing(reporter: Reporter) {
    use tracing_subscriber::{EnvFilter, fmt};
    let default = match reporter {
        Reporter::Silent => "error",
        _ => "warn",
    };
    // rustls logs each failed handshake; the install's own error says it.
    let default = format!("{default},rustls=off");
    let filter = EnvFilter::try_from_env("PACQUET_LOG").unwrap_or_else(|_| EnvFilter::new(default));
    let _ = fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_target(false)
        .without_time()
        .try_init();
}
