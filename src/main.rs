//! The `roomtax` binary: all behaviour lives in the library (`roomtax::cli`).

fn main() -> std::process::ExitCode {
    roomtax::cli::main()
}
