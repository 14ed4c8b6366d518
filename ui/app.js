// The memory panel: context switcher, episode list, recall. Talks to Rust only through
// backend.js. Containers carry `data-state` (loading / ready / empty / error) and
// `data-context`, so the end-to-end test (src-tauri/tests/e2e.rs) can wait for a finished render.

import * as backend from "./backend.js";
import { el, emptyState, episodeItem, hitItem } from "./render.js";

const PAGE = 50;
const BUILT_IN = ["personal", "work"];

const $ = (id) => document.getElementById(id);
const ui = {
  contexts: $("contexts"),
  error: $("error"),
  errorCode: document.querySelector("#error .error-code"),
  errorMessage: document.querySelector("#error .error-message"),
  errorDismiss: document.querySelector("#error .error-dismiss"),
  searchForm: $("search-form"),
  searchInput: $("search-input"),
  searchButton: $("search-button"),
  recall: $("recall"),
  episodes: $("episodes"),
  episodeCount: $("episode-count"),
  more: $("more"),
  status: $("status"),
};

const state = {
  context: null,
  contexts: [],
  episodes: [],
  exhausted: false,
  // Bumped on every context switch (episodes) and every search (recall), so a late answer
  // for an old one is dropped.
  contextGeneration: 0,
  recallGeneration: 0,
};

// ---- errors ---------------------------------------------------------------------------

const ERROR_TITLES = {
  invalid_input: "Invalid input",
  unknown_context: "Unknown context",
  not_found: "Not found",
  embedding: "Embedding model",
  database: "Database",
  io: "File",
  schema_too_new: "Newer store",
  no_backend: "No backend",
};

function showError(error) {
  const err = backend.BackendError.from(error);
  ui.errorCode.textContent = ERROR_TITLES[err.code] ?? "Error";
  ui.errorCode.title = err.code;
  ui.errorMessage.textContent = err.message;
  ui.error.dataset.code = err.code;
  ui.error.hidden = false;
  console.error(`[minne] ${err.code}: ${err.message}`);
}

function clearError() {
  ui.error.hidden = true;
  delete ui.error.dataset.code;
}

ui.errorDismiss.addEventListener("click", clearError);

function setState(node, value) {
  node.dataset.state = value;
  node.dataset.context = state.context ?? "";
}

// ---- contexts -------------------------------------------------------------------------

function orderContexts(list) {
  const rank = (name) => {
    const i = BUILT_IN.indexOf(name);
    return i === -1 ? BUILT_IN.length : i;
  };
  return [...list].sort((a, b) => rank(a.name) - rank(b.name) || a.name.localeCompare(b.name));
}

function renderContexts() {
  const known = new Map(state.contexts.map((c) => [c.name, c]));
  for (const name of BUILT_IN) {
    if (!known.has(name)) known.set(name, { name, episodes: null });
  }
  const buttons = orderContexts([...known.values()]).map((c) => {
    const button = el(
      "button",
      {
        type: "button",
        class: "context",
        dataset: { context: c.name },
        "aria-pressed": c.name === state.context ? "true" : "false",
        title: c.path ?? c.name,
      },
      el("span", { class: "context-name" }, c.name),
      c.episodes === null ? null : el("span", { class: "context-count" }, String(c.episodes)),
    );
    button.addEventListener("click", () => switchTo(c.name));
    return button;
  });
  ui.contexts.replaceChildren(...buttons);
  setState(ui.contexts, "ready");
}

async function refreshContexts() {
  try {
    state.contexts = await backend.listContexts();
  } catch (error) {
    showError(error);
  }
  renderContexts();
}

async function switchTo(name) {
  if (name === state.context) return;
  const generation = ++state.contextGeneration;
  setState(ui.episodes, "loading");
  try {
    const status = await backend.switchContext(name);
    if (generation !== state.contextGeneration) return;
    applyStatus(status);
    clearError();
  } catch (error) {
    showError(error);
    setState(ui.episodes, "ready");
    return;
  }
  renderContexts();
  await Promise.all([loadEpisodes({ reset: true }), runRecall()]);
}

function applyStatus(status) {
  state.context = status.context;
  document.title = `Minne · ${status.context}`;
  ui.status.replaceChildren(
    el("span", {}, "context ", el("strong", {}, status.context)),
    el("span", {}, "model ", el("code", {}, status.model)),
    el("span", { title: status.data_dir }, "data ", el("code", {}, status.data_dir)),
    el("span", { id: "capture-status" }, captureText(status.capture)),
  );
}

// Capture runs as a recorded job (seed 003: write status visible): what waits, and the last job.
function captureText(capture) {
  if (!capture) return "";
  const job = capture.recent_jobs && capture.recent_jobs[0];
  const last = job ? ` · last capture #${job.id} ${job.status}${job.error ? " (" + job.error + ")" : ""}` : "";
  return `capture: ${capture.messages_pending} waiting${last}`;
}

// ---- episodes -------------------------------------------------------------------------

async function loadEpisodes({ reset }) {
  const generation = state.contextGeneration;
  if (reset) {
    state.episodes = [];
    state.exhausted = false;
    setState(ui.episodes, "loading");
  }
  ui.more.disabled = true;
  let page;
  try {
    page = await backend.listEpisodes({ limit: PAGE, offset: state.episodes.length });
  } catch (error) {
    if (generation !== state.contextGeneration) return;
    showError(error);
    ui.episodes.replaceChildren(emptyState("Episodes are unavailable.", "See the error above."));
    setState(ui.episodes, "error");
    return;
  } finally {
    ui.more.disabled = false;
  }
  if (generation !== state.contextGeneration) return;
  state.episodes.push(...page);
  state.exhausted = page.length < PAGE;
  renderEpisodes();
}

function renderEpisodes() {
  const count = state.episodes.length;
  ui.episodeCount.textContent = count === 0 ? "" : `${count}${state.exhausted ? "" : "+"}`;
  ui.more.hidden = state.exhausted;
  if (count === 0) {
    ui.episodes.replaceChildren(
      emptyState(
        `No episodes in “${state.context}” yet.`,
        [
          "Memories captured or imported into this context appear here, e.g. ",
          el("code", {}, `minne import --context ${state.context} --format transcript chat.json`),
        ],
      ),
    );
    setState(ui.episodes, "empty");
    return;
  }
  ui.episodes.replaceChildren(el("ol", { class: "list" }, state.episodes.map(episodeItem)));
  setState(ui.episodes, "ready");
}

ui.more.addEventListener("click", () => loadEpisodes({ reset: false }));

// ---- recall ---------------------------------------------------------------------------

async function runRecall() {
  const text = ui.searchInput.value.trim();
  const generation = ++state.recallGeneration;
  ui.recall.dataset.query = text;
  if (!text) {
    ui.recall.replaceChildren(
      el("p", { class: "hint" }, "Type a question and press Recall to see what Minne would remember."),
    );
    setState(ui.recall, "idle");
    return;
  }
  setState(ui.recall, "loading");
  ui.searchButton.disabled = true;
  let hits;
  try {
    hits = await backend.recall(text);
  } catch (error) {
    if (generation !== state.recallGeneration) return;
    showError(error);
    ui.recall.replaceChildren(emptyState("Recall failed.", "See the error above."));
    setState(ui.recall, "error");
    return;
  } finally {
    ui.searchButton.disabled = false;
  }
  if (generation !== state.recallGeneration) return;
  clearError();
  if (hits.length === 0) {
    ui.recall.replaceChildren(
      emptyState(
        `Nothing recalled in “${state.context}” for “${text}”.`,
        "No memory scored above the threshold: Minne shows nothing rather than noise.",
      ),
    );
    setState(ui.recall, "empty");
    return;
  }
  ui.recall.replaceChildren(el("ol", { class: "list hits" }, hits.map((hit, i) => hitItem(hit, i + 1))));
  setState(ui.recall, "ready");
}

ui.searchForm.addEventListener("submit", (event) => {
  event.preventDefault();
  runRecall();
});

ui.searchInput.addEventListener("search", () => {
  // The clear (×) button of a search field: go back to the hint.
  if (!ui.searchInput.value) runRecall();
});

// ---- start ----------------------------------------------------------------------------

async function start() {
  try {
    applyStatus(await backend.status());
  } catch (error) {
    showError(error);
    renderContexts();
    ui.episodes.replaceChildren(emptyState("Minne could not open its memory.", "See the error above."));
    setState(ui.episodes, "error");
    return;
  }
  await Promise.all([refreshContexts(), loadEpisodes({ reset: true })]);
  ui.searchInput.focus();
}

start();
