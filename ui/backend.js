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

/**
 * The open context and how it is set up:
 * { context, mode: "remember" | "recall_only" | "paused", data_dir, model, capture }.
 */
export const status = () => call("status");

/** Contexts sorted by name: [{ name, episodes, path }]. */
export const listContexts = () => call("list_contexts");

/** Opens another context; resolves to the new status. */
export const switchContext = (name) => call("switch_context", { name });

/** Sets the open context's mode ("remember", "recall_only", "paused"); resolves to the new status. */
export const setMode = (mode) => call("set_mode", { mode });

/** Episodes of the open context, newest first. */
export const listEpisodes = ({ limit = 50, offset = 0 } = {}) =>
  call("list_episodes", { limit, offset });

/**
 * Rewrites an episode's words in place; provenance stays, the old words leave the store.
 * Resolves to { episode, text, edited_at, messages_redacted, facts_dropped, changed }.
 */
export const editEpisode = (id, text) => call("edit_episode", { id, text });

/**
 * Recall with its explanation: { hits: [{ episode, score, parts, age_days }],
 * near_misses: [{ hit, reason: { reason: "under_threshold" | "outside_k", … } }], people, terms,
 * took_ms }.
 */
export const recall = (text) => call("recall", { text });

/**
 * What to forget: { kind: "episode", id } | { kind: "session", id } |
 * { kind: "last", minutes } | { kind: "context" }.
 */
export const scopes = {
  episode: (id) => ({ kind: "episode", id }),
  session: (id) => ({ kind: "session", id }),
  last: (minutes) => ({ kind: "last", minutes }),
  context: () => ({ kind: "context" }),
};

/** What a forget would remove, changing nothing: { messages, episodes, from, to }. */
export const previewForget = (scope) => call("preview_forget", { scope });

/**
 * Forgets a scope with everything derived from it. Resolves to the receipt: { scope, messages,
 * messages_redacted, episodes, embeddings, participants, sessions, facts, tombstones, exports,
 * from, to, at, not_reached }.
 */
export const forget = (scope) => call("forget", { scope });

/** The profile: { facts: [{ attribute, value, text, confidence, sources }], procedures, open_items }. */
export const profile = () => call("profile");

/** Open review entries: [{ id, kind, reason, fact, other, procedure, created_at }]. */
export const reviewQueue = () => call("review_queue");

/** Accepts a review entry: its fact or procedure becomes active and confirmed. */
export const reviewConfirm = (id) => call("review_confirm", { id });

/** Rejects a review entry: it is not proposed again from the same evidence. */
export const reviewReject = (id) => call("review_reject", { id });
