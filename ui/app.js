// The memory panel: context switcher and mode, episode list with forgetting, recall with its
// explanation, the review queue and the profile. Talks to Rust only through backend.js.
// Containers carry `data-state` (loading / ready / empty / error / refused) and `data-context`,
// so the end-to-end test (src-tauri/tests/e2e.rs) can wait for a finished render.

import * as backend from "./backend.js";
import {
  editReceiptView,
  el,
  emptyState,
  episodeItem,
  explanation,
  hitItem,
  previewView,
  profileView,
  receiptView,
  reviewItem,
} from "./render.js";

const PAGE = 50;
const BUILT_IN = ["personal", "work"];
const LAST_HOUR_MINUTES = 60;

const $ = (id) => document.getElementById(id);
const ui = {
  contexts: $("contexts"),
  mode: $("mode"),
  pausedBanner: $("paused-banner"),
  pausedContext: document.querySelector("#paused-banner .paused-context"),
  resume: $("resume"),
  error: $("error"),
  errorCode: document.querySelector("#error .error-code"),
  errorMessage: document.querySelector("#error .error-message"),
  errorDismiss: document.querySelector("#error .error-dismiss"),
  searchForm: $("search-form"),
  searchInput: $("search-input"),
  searchButton: $("search-button"),
  recall: $("recall"),
  review: $("review"),
  reviewCount: $("review-count"),
  profile: $("profile"),
  episodes: $("episodes"),
  episodeCount: $("episode-count"),
  receipt: $("receipt"),
  forgetHour: $("forget-hour"),
  forgetContext: $("forget-context"),
  more: $("more"),
  status: $("status"),
  confirm: $("confirm"),
  confirmTitle: $("confirm-title"),
  confirmDetail: $("confirm-detail"),
  confirmOk: $("confirm-ok"),
  confirmCancel: $("confirm-cancel"),
};

const state = {
  context: null,
  mode: null,
  contexts: [],
  episodes: [],
  exhausted: false,
  // Bumped on every context switch (episodes, profile, review) and every search (recall), so
  // a late answer for an old one is dropped.
  contextGeneration: 0,
  recallGeneration: 0,
};

// ---- errors ---------------------------------------------------------------------------

const ERROR_TITLES = {
  invalid_input: "Cannot do that",
  unknown_context: "Unknown context",
  not_found: "Already gone",
  embedding: "Embedding model",
  database: "Database",
  io: "File",
  import: "Import",
  schema_too_new: "Newer store",
  mode_forbids: "Not in this mode",
  key: "Locked: key problem",
  no_backend: "No backend",
};

function showError(error) {
  const err = backend.BackendError.from(error);
  ui.errorCode.textContent = ERROR_TITLES[err.code] ?? "Something went wrong";
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

// ---- contexts and mode ---------------------------------------------------------------------

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
  hideReceipt();
  renderContexts();
  await Promise.all([loadEpisodes({ reset: true }), loadConsolidated(), runRecall()]);
}

function applyStatus(status) {
  state.context = status.context;
  state.mode = status.mode;
  document.title = `Minne · ${status.context}`;
  renderMode();
  ui.status.replaceChildren(
    el("span", {}, "context ", el("strong", {}, status.context)),
    el("span", { id: "mode-status" }, "mode ", el("strong", {}, MODE_NAMES[status.mode] ?? status.mode)),
    el("span", {}, "model ", el("code", {}, status.model)),
    el("span", { title: status.data_dir }, "data ", el("code", {}, status.data_dir)),
    el("span", { id: "capture-status" }, captureText(status.capture)),
  );
}

const MODE_NAMES = { remember: "remember", recall_only: "recall only", paused: "paused" };

function renderMode() {
  for (const button of ui.mode.querySelectorAll("button[data-mode]")) {
    button.setAttribute("aria-pressed", button.dataset.mode === state.mode ? "true" : "false");
  }
  ui.mode.dataset.mode = state.mode ?? "";
  setState(ui.mode, "ready");
  const paused = state.mode === "paused";
  ui.pausedContext.textContent = state.context ?? "";
  ui.pausedBanner.hidden = !paused;
  document.body.classList.toggle("is-paused", paused);
}

async function setMode(mode) {
  if (mode === state.mode) return;
  setState(ui.mode, "loading");
  try {
    applyStatus(await backend.setMode(mode));
    clearError();
  } catch (error) {
    showError(error);
    renderMode();
    return;
  }
  // Recall answers (or refuses) according to the new mode.
  await runRecall();
}

for (const button of ui.mode.querySelectorAll("button[data-mode]")) {
  button.addEventListener("click", () => setMode(button.dataset.mode));
}
ui.resume.addEventListener("click", () => setMode("remember"));

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
  ui.forgetContext.textContent = `Forget everything in “${state.context}”…`;
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
  ui.episodes.replaceChildren(
    el("ol", { class: "list" }, state.episodes.map((e) => episodeItem(e, { canEdit: true }))),
  );
  setState(ui.episodes, "ready");
}

ui.more.addEventListener("click", () => loadEpisodes({ reset: false }));

// One listener for every row's buttons: rows are rebuilt on each render.
ui.episodes.addEventListener("click", (event) => {
  const button = event.target.closest("button[data-action]");
  const row = button?.closest("li.episode");
  if (!button || !row) return;
  const episode = state.episodes.find((e) => String(e.id) === row.dataset.id);
  if (!episode) return;
  if (button.dataset.action === "edit") {
    openEditor(row, episode);
  } else if (button.dataset.action === "edit-save") {
    saveEdit(row, episode, button);
  } else if (button.dataset.action === "edit-cancel") {
    renderEpisodes();
  } else if (button.dataset.action === "forget-episode") {
    runForget(backend.scopes.episode(episode.id), { ask: false, busy: button });
  } else if (button.dataset.action === "forget-session") {
    runForget(backend.scopes.session(episode.session_id), {
      ask: true,
      title: "Forget this conversation?",
      what: "this conversation",
      confirmLabel: "Forget the conversation",
      busy: button,
    });
  }
});

// ---- editing -----------------------------------------------------------------------------------

function openEditor(row, episode) {
  const text = row.querySelector(".text");
  if (!text || row.querySelector(".editor")) return;
  const area = el("textarea", { class: "edit-text", rows: 3, "aria-label": "The memory's words" });
  area.value = episode.text;
  const editor = el(
    "div",
    { class: "editor" },
    area,
    el("p", { class: "edit-hint" }, "Only the words change; where and when it was said stay. The old words leave the store."),
    el(
      "div",
      { class: "editor-actions" },
      el("button", { type: "button", class: "button", dataset: { action: "edit-cancel" } }, "Cancel"),
      el("button", { type: "button", class: "button primary", dataset: { action: "edit-save" } }, "Save"),
    ),
  );
  text.replaceWith(editor);
  row.classList.add("editing");
  area.focus();
}

async function saveEdit(row, episode, button) {
  const area = row.querySelector(".edit-text");
  const hint = row.querySelector(".edit-hint");
  const text = area?.value.trim() ?? "";
  if (!text) {
    hint.textContent = "The words cannot be empty. To remove this memory, use Forget.";
    hint.classList.add("edit-invalid");
    return;
  }
  button.disabled = true;
  let receipt;
  try {
    receipt = await backend.editEpisode(episode.id, text);
    clearError();
  } catch (error) {
    button.disabled = false;
    showError(error);
    if (backend.BackendError.from(error).code !== "not_found") return;
  }
  if (receipt) showEditReceipt(receipt);
  await Promise.all([loadEpisodes({ reset: true }), loadConsolidated(), refreshRecallIfShown()]);
}

function showEditReceipt(receipt) {
  ui.receipt.replaceChildren(...editReceiptView(receipt, state.context));
  ui.receipt.dataset.scope = "edit";
  ui.receipt.hidden = false;
  ui.receipt.querySelector(".receipt-dismiss")?.addEventListener("click", hideReceipt);
  ui.receipt.scrollIntoView({ block: "nearest" });
}

// ---- forgetting -------------------------------------------------------------------------------

ui.forgetHour.addEventListener("click", () =>
  runForget(backend.scopes.last(LAST_HOUR_MINUTES), {
    ask: true,
    title: "Forget the last hour?",
    what: "the last hour",
    confirmLabel: "Forget the last hour",
    busy: ui.forgetHour,
  }),
);

ui.forgetContext.addEventListener("click", () =>
  runForget(backend.scopes.context(), {
    ask: true,
    title: `Forget everything in “${state.context}”?`,
    what: `“${state.context}”`,
    confirmLabel: "Forget everything",
    busy: ui.forgetContext,
  }),
);

/**
 * Asks first for any scope wider than one memory: a dialog in the page (not window.confirm,
 * which WebDriver and WebKitGTK handle poorly) with the preview's counts. Resolves to true
 * when the user chose to forget.
 */
async function confirmForget(scope, { title, what, confirmLabel }) {
  const preview = await backend.previewForget(scope);
  const nothing = preview.messages === 0 && preview.episodes === 0;
  ui.confirmTitle.textContent = nothing ? "Nothing to forget" : title;
  ui.confirmDetail.replaceChildren(...previewView(preview, what));
  ui.confirmOk.textContent = confirmLabel;
  ui.confirmOk.hidden = nothing;
  ui.confirmCancel.textContent = nothing ? "Close" : "Cancel";
  ui.confirm.dataset.scope = scope.kind;
  ui.confirm.returnValue = "";
  ui.confirm.showModal();
  // The safe choice has the focus: Enter does not forget.
  ui.confirmCancel.focus();
  return new Promise((resolve) => {
    ui.confirm.addEventListener("close", () => resolve(!nothing && ui.confirm.returnValue === "ok"), {
      once: true,
    });
  });
}

async function runForget(scope, { ask, busy, ...question }) {
  const context = state.context;
  if (busy) busy.disabled = true;
  try {
    if (ask && !(await confirmForget(scope, question))) return;
    const receipt = await backend.forget(scope);
    clearError();
    showReceipt(receipt, context);
  } catch (error) {
    showError(error);
    // A record that is already gone: show what is there now.
    if (backend.BackendError.from(error).code !== "not_found") return;
  } finally {
    if (busy) busy.disabled = false;
  }
  await Promise.all([loadEpisodes({ reset: true }), loadConsolidated(), refreshContexts(), refreshRecallIfShown()]);
}

function showReceipt(receipt, context) {
  ui.receipt.replaceChildren(...receiptView(receipt, context));
  ui.receipt.dataset.scope = receipt.scope;
  ui.receipt.hidden = false;
  ui.receipt.querySelector(".receipt-dismiss")?.addEventListener("click", hideReceipt);
  ui.receipt.scrollIntoView({ block: "nearest" });
}

function hideReceipt() {
  ui.receipt.hidden = true;
  ui.receipt.replaceChildren();
  delete ui.receipt.dataset.scope;
}

// ---- profile and review -----------------------------------------------------------------------

async function loadConsolidated() {
  await Promise.all([loadReview(), loadProfile()]);
}

async function loadProfile() {
  const generation = state.contextGeneration;
  setState(ui.profile, "loading");
  let profile;
  try {
    profile = await backend.profile();
  } catch (error) {
    if (generation !== state.contextGeneration) return;
    showError(error);
    ui.profile.replaceChildren(emptyState("The profile is unavailable.", "See the error above."));
    setState(ui.profile, "error");
    return;
  }
  if (generation !== state.contextGeneration) return;
  const parts = profileView(profile);
  if (parts.length === 0) {
    ui.profile.replaceChildren(
      emptyState(
        "Nothing in the profile yet.",
        "Facts about you appear here once you state them outright (“I live in Tartu”), each with the words it rests on.",
      ),
    );
    setState(ui.profile, "empty");
    return;
  }
  ui.profile.replaceChildren(...parts);
  setState(ui.profile, "ready");
}

async function loadReview() {
  const generation = state.contextGeneration;
  setState(ui.review, "loading");
  let queue;
  try {
    queue = await backend.reviewQueue();
  } catch (error) {
    if (generation !== state.contextGeneration) return;
    showError(error);
    ui.review.replaceChildren(emptyState("The review queue is unavailable.", "See the error above."));
    setState(ui.review, "error");
    return;
  }
  if (generation !== state.contextGeneration) return;
  ui.reviewCount.textContent = queue.length ? String(queue.length) : "";
  if (queue.length === 0) {
    ui.review.replaceChildren(
      el("p", { class: "hint" }, "Nothing to review. Minne asks here before a guess becomes a fact or a rule."),
    );
    setState(ui.review, "empty");
    return;
  }
  ui.review.replaceChildren(el("ol", { class: "list" }, queue.map(reviewItem)));
  setState(ui.review, "ready");
}

ui.review.addEventListener("click", async (event) => {
  const button = event.target.closest("button[data-action]");
  const item = button?.closest("li.review-item");
  if (!button || !item) return;
  const id = Number(item.dataset.id);
  for (const b of item.querySelectorAll("button")) b.disabled = true;
  try {
    if (button.dataset.action === "confirm") await backend.reviewConfirm(id);
    else await backend.reviewReject(id);
    clearError();
  } catch (error) {
    showError(error);
  }
  await loadConsolidated();
});

// ---- recall ---------------------------------------------------------------------------

async function refreshRecallIfShown() {
  if (ui.searchInput.value.trim()) await runRecall();
}

async function runRecall() {
  const text = ui.searchInput.value.trim();
  const generation = ++state.recallGeneration;
  ui.recall.dataset.query = text;
  if (!text) {
    ui.recall.replaceChildren(
      el(
        "p",
        { class: "hint" },
        state.mode === "paused"
          ? "Recall is paused in this context: Minne recalls nothing until you resume."
          : "Type a question and press Recall to see what Minne would remember.",
      ),
    );
    setState(ui.recall, "idle");
    return;
  }
  setState(ui.recall, "loading");
  ui.searchButton.disabled = true;
  let result;
  try {
    result = await backend.recall(text);
  } catch (error) {
    if (generation !== state.recallGeneration) return;
    const err = backend.BackendError.from(error);
    if (err.code === "mode_forbids") {
      // Not a failure: the user paused memory. Say so where the results would be.
      ui.recall.replaceChildren(
        el("div", { class: "refused" }, el("p", { class: "empty-title" }, "Recall is paused."), el("p", {}, err.message)),
      );
      setState(ui.recall, "refused");
      return;
    }
    showError(err);
    ui.recall.replaceChildren(emptyState("Recall failed.", "See the error above."));
    setState(ui.recall, "error");
    return;
  } finally {
    ui.searchButton.disabled = false;
  }
  if (generation !== state.recallGeneration) return;
  clearError();
  if (result.hits.length === 0) {
    ui.recall.replaceChildren(
      emptyState(
        `Nothing recalled in “${state.context}” for “${text}”.`,
        "No memory scored above the threshold: Minne shows nothing rather than noise.",
      ),
      explanation(result),
    );
    setState(ui.recall, "empty");
    return;
  }
  ui.recall.replaceChildren(
    el("ol", { class: "list hits" }, result.hits.map((hit, i) => hitItem(hit, i + 1))),
    explanation(result),
  );
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
    for (const node of [ui.profile, ui.review]) {
      node.replaceChildren(emptyState("Unavailable.", "See the error above."));
      setState(node, "error");
    }
    return;
  }
  await Promise.all([refreshContexts(), loadEpisodes({ reset: true }), loadConsolidated()]);
  ui.searchInput.focus();
}

start();
