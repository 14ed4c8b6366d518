//! Minne's desktop app: a Tauri 2 shell around the engine (`minne`) and the memory panel in
//! `ui/`. The shell holds no memory logic: each command in [`commands`] calls one engine
//! function on the context open in [`state::AppState`], and failures cross to the UI as
//! [`CommandError`] `{ code, message }`.
//!
//! Settings come from the environment as for the CLI: `MINNE_DATA_DIR`, `MINNE_MODELS_DIR`,
//! `MINNE_MODEL` (see `minne::settings::Settings::from_env`).

pub mod commands;
mod error;
pub mod state;

pub use error::{CommandError, ErrorCode};

/// Lists the commands once: it builds the invoke handler and [`COMMANDS`], the names that
/// `ui/backend.js` must call (a unit test holds the two together).
macro_rules! command_list {
    ($($module:ident::$command:ident),* $(,)?) => {
        /// Every command the UI may invoke, by name.
        pub const COMMANDS: &[&str] = &[$(stringify!($command)),*];

        fn invoke_handler() -> impl Fn(tauri::ipc::Invoke<tauri::Wry>) -> bool + Send + Sync + 'static {
            tauri::generate_handler![$(commands::$module::$command),*]
        }
    };
}

command_list![
    contexts::list_contexts,
    contexts::status,
    contexts::switch_context,
    edit::edit_episode,
    episodes::list_episodes,
    forget::preview_forget,
    forget::forget,
    mode::set_mode,
    profile::profile,
    profile::review_queue,
    profile::review_confirm,
    profile::review_reject,
    recall::recall,
];

/// Opens the memory (settings, embedding model, the default context `personal`) and runs the
/// app until its window closes. If the memory cannot be opened, the window still opens and
/// shows why.
///
/// # Errors
/// When Tauri itself cannot start (no display, no WebKitGTK).
pub fn run() -> tauri::Result<()> {
    let state = state::AppState::start();
    if let Err(error) = state.memory() {
        eprintln!("minne-desktop: {error}");
    }
    tauri::Builder::default()
        .manage(state)
        .invoke_handler(invoke_handler())
        .run(tauri::generate_context!())
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::COMMANDS;

    const UI: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../ui");

    /// The names `ui/backend.js` passes to `call("…")`.
    fn called_from_backend_js() -> Vec<String> {
        let js = std::fs::read_to_string(format!("{UI}/backend.js")).unwrap();
        js.split("call(\"")
            .skip(1)
            .filter_map(|rest| rest.split('"').next())
            .map(str::to_string)
            .collect()
    }

    #[test]
    fn backend_js_calls_exactly_the_registered_commands() {
        let mut called = called_from_backend_js();
        called.sort();
        called.dedup();
        let mut registered: Vec<String> = COMMANDS.iter().map(|c| c.to_string()).collect();
        registered.sort();
        assert_eq!(
            called, registered,
            "ui/backend.js and the invoke handler must list the same commands, or a call fails at run time"
        );
    }

    #[test]
    fn only_backend_js_reaches_tauri() {
        for entry in std::fs::read_dir(UI).unwrap() {
            let path = entry.unwrap().path();
            let name = path.file_name().unwrap().to_string_lossy().to_string();
            if name == "backend.js" || !(name.ends_with(".js") || name.ends_with(".html")) {
                continue;
            }
            let text = std::fs::read_to_string(&path).unwrap();
            assert!(
                !text.contains("__TAURI__") && !text.contains("invoke("),
                "{name} reaches Tauri directly: go through ui/backend.js, the one backend interface"
            );
        }
    }
}
