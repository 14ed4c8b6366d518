// No console window behind the app in Windows release builds.
#![cfg_attr(not(debug_assertions), windows_subsystem = "windows")]

#[allow(unsafe_code)] // setting the environment is unsafe only with other threads running
fn main() {
    // ONNX Runtime's telemetry off before the library loads (see the CLI's
    // `disable_runtime_telemetry`); a value the user set is kept.
    if std::env::var_os(minne::embed::RUNTIME_TELEMETRY_ENV).is_none() {
        // SAFETY: first thing in `main`, before any other thread exists.
        unsafe { std::env::set_var(minne::embed::RUNTIME_TELEMETRY_ENV, "1") };
    }
    if let Err(error) = minne_desktop::run() {
        eprintln!("minne-desktop: the app could not run: {error}");
        std::process::exit(1);
    }
}
