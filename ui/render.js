// Builds the panel's DOM from what the backend returns. No state, no backend calls.

/** `el("li", { class: "x", dataset: { id: 1 } }, child, "text")`: an element with children. */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "dataset") Object.assign(node.dataset, value);
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  node.append(...children.flat().filter((c) => c !== null && c !== undefined && c !== false));
  return node;
}

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });
const relative = new Intl.RelativeTimeFormat(undefined, { numeric: "auto" });

/** "12 Mar 2026, 10:00" from an RFC 3339 time, in the viewer's time zone. */
export function formatTime(rfc3339) {
  const date = new Date(rfc3339);
  return Number.isNaN(date.getTime()) ? String(rfc3339) : dateTime.format(date);
}

/** "3 days ago" from an RFC 3339 time. */
export function formatAge(rfc3339, now = Date.now()) {
  const seconds = (new Date(rfc3339).getTime() - now) / 1000;
  if (Number.isNaN(seconds)) return "";
  const units = [
    ["year", 365 * 86400],
    ["month", 30 * 86400],
    ["day", 86400],
    ["hour", 3600],
    ["minute", 60],
  ];
  for (const [unit, size] of units) {
    if (Math.abs(seconds) >= size) return relative.format(Math.round(seconds / size), unit);
  }
  return "just now";
}

const fixed = (x, digits = 2) => (typeof x === "number" ? x.toFixed(digits) : "–");

/** A labelled 0..1 value with a small bar. */
function gauge(name, value, label = name) {
  const fill = el("span", { class: "gauge-fill" });
  const clamped = Math.max(0, Math.min(1, Number(value) || 0));
  // CSSOM, not a style attribute: the CSP forbids inline style attributes.
  fill.style.setProperty("--v", clamped.toFixed(3));
  return el(
    "span",
    { class: `gauge gauge-${name}`, title: `${label}: ${fixed(value, 3)}` },
    el("span", { class: "gauge-label" }, label),
    el("span", { class: "gauge-bar" }, fill),
    el("span", { class: "gauge-value" }, fixed(value)),
  );
}

function kindBadge(kind) {
  return el("span", { class: `kind kind-${kind}` }, kind);
}

function provenance(episode) {
  const session = episode.session_external_id || `session ${episode.session_id}`;
  const message = episode.message_external_id ? ` · message ${episode.message_external_id}` : "";
  return el(
    "span",
    { class: "source", title: `${session}${message}` },
    el("span", { class: "source-name" }, episode.source || "unknown source"),
    el("span", { class: "source-session" }, ` · ${session}${message}`),
  );
}

const calendarDay = new Intl.DateTimeFormat(undefined, {
  weekday: "short",
  day: "numeric",
  month: "short",
  year: "numeric",
  timeZone: "UTC",
});

// The writer's wall-clock time, formatted as is: an event time is about the writer's own day.
const wallTime = new Intl.DateTimeFormat(undefined, {
  dateStyle: "medium",
  timeStyle: "short",
  timeZone: "UTC",
});

/** The wall-clock time written in an RFC 3339 string ("…T20:57…+01:00" → 20:57), as a UTC Date. */
function wallClock(rfc3339) {
  return new Date(`${String(rfc3339).slice(0, 16)}:00Z`);
}

/**
 * The time an episode refers to, from its `[start, end)` in the writer's UTC offset, shown on
 * the writer's clock: "Fri, 27 Nov 2026" for a whole day, "… – Fri, 4 Dec 2026" for a span
 * ending at a midnight (the exclusive end's previous day), times otherwise.
 */
export function formatSpan(start, end) {
  const a = wallClock(start);
  const b = wallClock(end);
  if (Number.isNaN(a.getTime()) || Number.isNaN(b.getTime())) return `${start} – ${end}`;
  if (start === end) return wallTime.format(a);
  const midnight = (d) => d.getUTCHours() === 0 && d.getUTCMinutes() === 0;
  if (!midnight(b)) return `${wallTime.format(a)} – ${wallTime.format(b)}`;
  const lastDay = new Date(b.getTime() - 86400000);
  if (midnight(a) && lastDay.getTime() <= a.getTime()) return calendarDay.format(a);
  const from = midnight(a) ? calendarDay.format(a) : wallTime.format(a);
  return `${from} – ${calendarDay.format(lastDay)}`;
}

function eventTime(episode) {
  const when = episode.event_time;
  if (!when) return null;
  return el(
    "span",
    { class: "event-time", title: `${when.start} – ${when.end}` },
    `“${when.expression}” → ${formatSpan(when.start, when.end)}`,
  );
}

function episodeHead(episode) {
  return el(
    "div",
    { class: "card-head" },
    kindBadge(episode.kind),
    el("span", { class: "actor" }, episode.actor),
    el(
      "time",
      { class: "when", datetime: episode.occurred_at, title: episode.occurred_at },
      `${formatTime(episode.occurred_at)} · ${formatAge(episode.occurred_at)}`,
    ),
  );
}

/** One episode in the list, with its actions (handled in app.js by `data-action`). */
export function episodeItem(episode, { canEdit = false } = {}) {
  return el(
    "li",
    {
      class: `card episode kind-${episode.kind}`,
      dataset: { id: episode.id, session: episode.session_id },
    },
    episodeHead(episode),
    el("p", { class: "text" }, episode.text),
    el(
      "div",
      { class: "card-meta" },
      gauge("salience", episode.salience),
      gauge("retrievability", episode.retrievability),
      el("span", { class: "stability", title: "lifespan set at capture" }, `lifespan ${fixed(episode.stability_days, 0)} d`),
      eventTime(episode),
      provenance(episode),
    ),
    el(
      "div",
      { class: "card-actions" },
      canEdit ? actionButton("edit", "Edit", "Edit this memory's words") : null,
      actionButton("forget-episode", "Forget", "Forget this memory now, with what derives from it"),
      actionButton(
        "forget-session",
        "Forget conversation…",
        "Forget the whole conversation this memory came from (asks first)",
      ),
    ),
  );
}

function actionButton(action, label, title) {
  return el("button", { type: "button", class: `link-button ${action}`, dataset: { action }, title }, label);
}

/** One recall hit with its score and the score's parts. */
export function hitItem(hit, rank) {
  const episode = hit.episode;
  const parts = hit.parts ?? {};
  return el(
    "li",
    { class: `card hit kind-${episode.kind}`, dataset: { id: episode.id, rank } },
    el(
      "div",
      { class: "hit-score", title: "combined score" },
      el("span", { class: "score-value" }, fixed(hit.score)),
      el("span", { class: "score-label" }, "score"),
    ),
    el(
      "div",
      { class: "hit-body" },
      episodeHead(episode),
      el("p", { class: "text" }, episode.text),
      el(
        "div",
        { class: "parts", title: "the parts of the score, before weighting" },
        gauge("similarity", parts.similarity),
        gauge("retrievability", parts.retrievability),
        gauge("salience", parts.salience),
      ),
      el(
        "div",
        { class: "card-meta" },
        el("span", { class: "age" }, `${fixed(hit.age_days, 1)} days old`),
        eventTime(episode),
        provenance(episode),
      ),
    ),
  );
}

/** A quiet message in place of a list; `detail` is text or nodes. */
export function emptyState(title, detail) {
  return el("div", { class: "empty" }, el("p", { class: "empty-title" }, title), detail ? el("p", {}, detail) : null);
}

// ---- recall explanation ------------------------------------------------------------------

function leftOutReason(reason) {
  if (!reason) return "left out";
  if (reason.reason === "under_threshold") return `below the threshold ${fixed(reason.threshold)}`;
  if (reason.reason === "outside_k") return `rank ${reason.rank}, only the top ${reason.k} are shown`;
  return "left out";
}

/** "Why these results?": what was searched and the best candidates left out, with why. */
export function explanation(result) {
  const misses = result.near_misses ?? [];
  const searched = [];
  if (result.terms?.length) searched.push(`words ${result.terms.map((t) => `“${t}”`).join(", ")}`);
  if (result.people?.length) searched.push(`people ${result.people.join(", ")} (as speakers, not words)`);
  return el(
    "details",
    { class: "explain" },
    el("summary", {}, result.hits.length ? "Why these results?" : "Why nothing?"),
    el(
      "p",
      { class: "explain-line" },
      `Searched by meaning${searched.length ? " and by " + searched.join("; ") : ""}, in ${fixed(result.took_ms, 0)} ms.`,
    ),
    misses.length === 0
      ? el("p", { class: "explain-line" }, "No other memory came close.")
      : el(
          "ol",
          { class: "misses" },
          misses.map((miss) =>
            el(
              "li",
              { class: "miss", dataset: { id: miss.hit.episode.id } },
              el("span", { class: "miss-score" }, fixed(miss.hit.score)),
              el("span", { class: "miss-text" }, miss.hit.episode.text),
              el("span", { class: "miss-reason" }, leftOutReason(miss.reason)),
            ),
          ),
        ),
  );
}

// ---- forgetting ------------------------------------------------------------------------------

/** The receipt's counts, in the order the panel shows them: [field, singular, plural]. */
const RECEIPT_KINDS = [
  ["episodes", "episode", "episodes"],
  ["episodes_trimmed", "episode kept without its words on the topic", "episodes kept without their words on the topic"],
  ["echoes", "echo in a reply cut", "echoes in replies cut"],
  ["messages", "message removed", "messages removed"],
  ["messages_redacted", "message cut", "messages cut"],
  ["embeddings", "embedding", "embeddings"],
  ["facts", "fact", "facts"],
  ["sessions", "conversation", "conversations"],
  ["participants", "participant row", "participant rows"],
  ["exports", "export file removed", "export files removed"],
  ["exports_rewritten", "export rewritten without it", "exports rewritten without it"],
  ["tombstones", "tombstone", "tombstones"],
];

const SCOPE_NAMES = {
  episode: "one memory",
  session: "a conversation",
  time_range: "a time range",
  context: "the whole context",
};

/** "between 12 Mar, 10:00 and 12 Mar, 11:00", or one time, in the viewer's time zone. */
export function formatRange(from, to) {
  if (!from) return null;
  if (!to || from === to) return `at ${formatTime(from)}`;
  return `between ${formatTime(from)} and ${formatTime(to)}`;
}

const plural = (n, one, many) => `${n} ${n === 1 ? one : many}`;

/** What a forget did, from its receipt: counts per kind, time range, when, what was not reached. */
export function receiptView(receipt, context) {
  const range = formatRange(receipt.from, receipt.to);
  const notReached = receipt.not_reached ?? [];
  return [
    el(
      "div",
      { class: "receipt-head" },
      el("strong", {}, `Forgotten from “${context}”: ${SCOPE_NAMES[receipt.scope] ?? receipt.scope}`),
      el("time", { class: "receipt-at", datetime: receipt.at }, formatTime(receipt.at)),
      el("button", { type: "button", class: "receipt-dismiss", "aria-label": "Dismiss the receipt" }, "×"),
    ),
    el(
      "ul",
      { class: "receipt-counts" },
      RECEIPT_KINDS.map(([field, one, many]) => {
        const n = Number(receipt[field] ?? 0);
        return el(
          "li",
          { class: n === 0 ? "zero" : "", dataset: { kind: field, count: n } },
          el("strong", { class: "receipt-count" }, String(n)),
          ` ${n === 1 ? one : many}`,
        );
      }),
    ),
    el(
      "p",
      { class: "receipt-range" },
      range ? `What went was written ${range}.` : "No message was in scope.",
      " The words are gone from the files; tombstones keep a re-import from bringing them back.",
    ),
    notReached.length === 0
      ? el("p", { class: "receipt-reached" }, "Everything in scope was reached.")
      : el(
          "div",
          { class: "receipt-not-reached" },
          el("strong", {}, "Not reached:"),
          el("ul", {}, notReached.map((n) => el("li", {}, n))),
        ),
  ];
}

/** What an edit did. */
export function editReceiptView(receipt, context) {
  const details = receipt.changed
    ? [
        plural(receipt.messages_redacted, "source message", "source messages") + " rewritten",
        plural(receipt.facts_dropped, "fact", "facts") + " built on the old words dropped, then re-read from the new ones",
        ...(receipt.echoes > 0
          ? [plural(receipt.echoes, "sentence", "sentences") + " of replies that said the old words back now read [edited]"]
          : []),
      ].join("; ")
    : "The words were the same; nothing changed";
  return [
    el(
      "div",
      { class: "receipt-head" },
      el("strong", {}, `Edited a memory in “${context}”`),
      el("time", { class: "receipt-at", datetime: receipt.edited_at }, formatTime(receipt.edited_at)),
      el("button", { type: "button", class: "receipt-dismiss", "aria-label": "Dismiss the receipt" }, "×"),
    ),
    el("p", { class: "receipt-edit", dataset: { changed: receipt.changed } }, `${details}.`),
    el(
      "p",
      { class: "receipt-range" },
      receipt.changed ? "The old words are gone from the files; a re-import of an old export does not bring them back." : "",
    ),
  ];
}

/** The confirmation's body: what the scope covers, from the preview. */
export function previewView(preview, what) {
  if (preview.messages === 0 && preview.episodes === 0) {
    return [el("p", { class: "confirm-nothing" }, `Nothing to forget: ${what} holds no message.`)];
  }
  const range = formatRange(preview.from, preview.to);
  return [
    el(
      "p",
      { class: "confirm-counts" },
      "This removes ",
      el("strong", { dataset: { kind: "messages" } }, plural(preview.messages, "message", "messages")),
      " and ",
      el("strong", { dataset: { kind: "episodes" } }, plural(preview.episodes, "episode", "episodes")),
      range ? ` written ${range}` : "",
      ", with everything derived from them: embeddings, facts resting only on them, summaries and exports Minne wrote.",
    ),
    el("p", { class: "confirm-warning" }, "This cannot be undone."),
  ];
}

// ---- profile and review ----------------------------------------------------------------------

const CONFIDENCE_TITLES = {
  inferred: "inferred: read between the lines; a candidate only",
  stated: "stated: you said it outright",
  confirmed: "confirmed: you confirmed it",
};

function confidenceBadge(confidence) {
  return el("span", { class: `confidence confidence-${confidence}`, title: CONFIDENCE_TITLES[confidence] }, confidence);
}

/** "location" or "preference:coffee" → "Location", "Preference · coffee". */
function attributeLabel(attribute) {
  const [head, ...rest] = String(attribute).split(":");
  const title = head.replaceAll("_", " ").replace(/^./, (c) => c.toUpperCase());
  return rest.length ? `${title} · ${rest.join(":")}` : title;
}

function sourcesList(sources) {
  if (!sources?.length) return null;
  return el(
    "ul",
    { class: "sources" },
    sources.map((s) =>
      el(
        "li",
        { class: "quote-source", dataset: { episode: s.episode_id } },
        el("q", {}, s.quote),
        el("time", { datetime: s.said_at }, ` · ${formatTime(s.said_at)}`),
      ),
    ),
  );
}

/** One fact of the profile, with its confidence and the words it rests on. */
export function factItem(fact) {
  return el(
    "li",
    { class: "fact", dataset: { id: fact.id, attribute: fact.attribute, confidence: fact.confidence } },
    el(
      "div",
      { class: "fact-head" },
      el("span", { class: "fact-attribute" }, attributeLabel(fact.attribute)),
      el("span", { class: "fact-value" }, fact.value),
      confidenceBadge(fact.confidence),
      el("span", { class: "fact-support", title: "how many of your memories say it" }, plural(fact.support, "source", "sources")),
    ),
    sourcesList(fact.sources),
  );
}

/** The profile: facts, procedures and open items. */
export function profileView(profile) {
  const parts = [];
  if (profile.facts.length) parts.push(el("ul", { class: "facts" }, profile.facts.map(factItem)));
  if (profile.procedures.length) {
    parts.push(
      el("h3", {}, "How to act"),
      el(
        "ul",
        { class: "facts" },
        profile.procedures.map((p) =>
          el(
            "li",
            { class: "fact procedure", dataset: { id: p.id } },
            el("div", { class: "fact-head" }, el("span", { class: "fact-value" }, p.instruction), confidenceBadge(p.confidence)),
            sourcesList(p.sources),
          ),
        ),
      ),
    );
  }
  if (profile.open_items.length) {
    parts.push(
      el("h3", {}, "Open items"),
      el(
        "ul",
        { class: "facts" },
        profile.open_items.map((o) =>
          el(
            "li",
            { class: "fact open-item", dataset: { id: o.id } },
            el(
              "div",
              { class: "fact-head" },
              el("span", { class: "fact-value" }, o.text),
              o.due_start && o.due_end
                ? el("span", { class: "fact-support", title: `${o.due_start} – ${o.due_end}` }, `due ${formatSpan(o.due_start, o.due_end)}`)
                : null,
            ),
          ),
        ),
      ),
    );
  }
  return parts;
}

const REVIEW_TITLES = {
  candidate: "Is this you?",
  conflict: "Which is right?",
  procedure_request: "Make this a rule?",
};

function reviewFact(label, fact) {
  if (!fact) return null;
  return el(
    "div",
    { class: "review-fact" },
    el("span", { class: "review-label" }, label),
    el("span", { class: "fact-attribute" }, attributeLabel(fact.attribute)),
    el("span", { class: "fact-value" }, fact.value),
    confidenceBadge(fact.confidence),
    sourcesList(fact.sources),
  );
}

/** One open review entry with Confirm and Reject (handled in app.js by `data-action`). */
export function reviewItem(item) {
  const conflict = item.kind === "conflict";
  return el(
    "li",
    { class: `card review-item review-${item.kind}`, dataset: { id: item.id, kind: item.kind } },
    el(
      "div",
      { class: "review-head" },
      el("strong", {}, REVIEW_TITLES[item.kind] ?? "Review"),
      el("span", { class: "review-reason" }, item.reason),
    ),
    reviewFact(conflict ? "new" : "fact", item.fact),
    conflict ? reviewFact("held", item.other) : null,
    item.procedure
      ? el(
          "div",
          { class: "review-fact" },
          el("span", { class: "review-label" }, "rule"),
          el("span", { class: "fact-value" }, item.procedure.instruction),
          sourcesList(item.procedure.sources),
        )
      : null,
    el(
      "div",
      { class: "review-actions" },
      el(
        "button",
        { type: "button", class: "button primary review-confirm", dataset: { action: "confirm" } },
        conflict ? "Use the new value" : "Confirm",
      ),
      el("button", { type: "button", class: "button review-reject", dataset: { action: "reject" } }, conflict ? "Keep the held value" : "Reject"),
    ),
  );
}
