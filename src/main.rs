//! The `lazuli` command: with no subcommand, the UCI engine; otherwise one of the tools in
//! `lazuli::tools`. This file is only the command line and the dispatch.

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};
use lazuli::tools;
use std::process::ExitCode;

/// Lazuli, a UCI chess engine. With no command it speaks UCI on stdin and stdout.
#[derive(Parser, Debug)]
#[command(name = "lazuli", version, args_conflicts_with_subcommands = true)]
struct Cli {
    /// Tablebase settings for the UCI engine from FILE (or name it in LAZULI_SYZYGY_CONFIG)
    #[arg(long, value_name = "FILE")]
    syzygy_config: Option<std::path::PathBuf>,
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand, Debug)]
enum Command {
    Bench(tools::bench::Args),
    Perft(tools::perft::Args),
    Tb(tools::tb::Args),
    Datagen(tools::datagen::Args),
    Data(tools::data::Args),
    Net(tools::net::Args),
    Texel(tools::texel::Args),
    Train(tools::train::Args),
    Speedtest(tools::speedtest::Args),
}

/// `--version`: the version, the commit, and what this build and this CPU use.
fn long_version() -> String {
    let attacks = if lazuli::chess::attacks::USES_PEXT {
        "PEXT (BMI2)"
    } else {
        "magic bitboards"
    };
    let simd = lazuli::eval::nnue::simd::Level::available();
    let names: Vec<&str> = simd.iter().map(|l| l.name()).collect();
    format!(
        "{} (commit {})\nsliding attacks: {attacks}\nnetwork SIMD: {} (this CPU offers: {})\ntarget: {}",
        env!("CARGO_PKG_VERSION"),
        env!("LAZULI_GIT_COMMIT"),
        lazuli::eval::nnue::simd::level().name(),
        names.join(", "),
        std::env::consts::ARCH,
    )
}

fn main() -> ExitCode {
    let matches = Cli::command()
        .long_version(&*Box::leak(long_version().into_boxed_str()))
        .get_matches();
    let cli = match Cli::from_arg_matches(&matches) {
        Ok(c) => c,
        Err(e) => e.exit(),
    };
    match cli.command {
        None => run_uci(cli.syzygy_config),
        Some(Command::Bench(a)) => tools::bench::command(a),
        Some(Command::Perft(a)) => tools::perft::command(a),
        Some(Command::Tb(a)) => tools::tb::command(a),
        Some(Command::Datagen(a)) => tools::datagen::command(a),
        Some(Command::Data(a)) => tools::data::command(a),
        Some(Command::Net(a)) => tools::net::command(a),
        Some(Command::Texel(a)) => tools::texel::command(a),
        Some(Command::Train(a)) => tools::train::command(a),
        Some(Command::Speedtest(a)) => tools::speedtest::command(a),
    }
}

/// The UCI engine, with tablebase settings from `--syzygy-config FILE` or
/// `LAZULI_SYZYGY_CONFIG`.
fn run_uci(config: Option<std::path::PathBuf>) -> ExitCode {
    let file = config.or_else(|| std::env::var_os("LAZULI_SYZYGY_CONFIG").map(Into::into));
    let mut initial = Vec::new();
    if let Some(f) = file {
        match lazuli::uci::config::read(&f) {
            Ok(pairs) => initial = pairs,
            Err(errors) => {
                for e in errors {
                    println!("info string error: {}: {e}", f.display());
                }
            }
        }
    }
    match lazuli::uci::coordinator::run(std::io::stdin(), lazuli::uci::Out::stdout(), &initial) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("lazuli: {e}");
            ExitCode::from(1)
        }
    }
}
