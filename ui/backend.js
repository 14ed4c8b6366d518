// The one door from the panel to the Rust shell (src-tauri/src/commands). Every command name
// the UI uses is written here and nowhere else; a unit test in src-tauri/src/lib.rs checks this
// list against the commands the shell registers.
//
// Every function returns a promise. A failure rejects with a BackendError { code, message }:
// branch on `code` (snake_case, see src-tauri/src/error.rs), show `message` to the user.

export class BackendError extends Error {
  constructor(code, message) {
    super(message);
    this.name = "BackendError";
    this.code = code;
  }

  static from(raw) {
    if (raw instanceof BackendError) return raw;
    if (raw && typeof raw === "object" && typeof raw.code === "string") {
      return new BackendError(raw.code, String(raw.message ?? raw.code));
    }
    // Tauri's own failures (an unknown command, a bad argument) arrive as plain strings.
    return new BackendError("internal", String(raw?.message ?? raw));
  }
}

function tauriInvoke() {
  const invoke = window.__TAURI__?.core?.invoke;
  if (typeof invoke !== "function") {
    throw new BackendError(
      "no_backend",
      "The memory panel runs inside the Minne app: start it with `cargo run -p minne-desktop`.",
    );
  }
  return invoke;
}

async function call(command, args = {}) {
  try {
    return await tauriInvoke()(command, args);
  } catch (raw) {
    throw BackendError.from(raw);
  }
}

/** The open context, the data folder and the embedding model: { context, data_dir, model }. */
export const status = () => call("status");

/** Contexts sorted by name: [{ name, episodes, path }]. */
export const listContexts = () => call("list_contexts");

/** Opens another context; resolves to the new status. */
export const switchContext = (name) => call("switch_context", { name });

/** Episodes of the open context, newest first. */
export const listEpisodes = ({ limit = 50, offset = 0 } = {}) =>
  call("list_episodes", { limit, offset });

/** Recall: [{ episode, score, parts: { similarity, retrievability, salience }, age_days }]. */
export const recall = (text) => call("recall", { text });
