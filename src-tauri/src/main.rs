// No console window behind the app in Windows release builds.
#![cfg_attr(not(debug_assertions), windows_subsystem = "windows")]

fn main() {
    if let Err(error) = minne_desktop::run() {
        eprintln!("minne-desktop: the app could not run: {error}");
        std::process::exit(1);
    }
}
