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

/** One episode in the list. */
export function episodeItem(episode) {
  return el(
    "li",
    { class: `card episode kind-${episode.kind}`, dataset: { id: episode.id } },
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
  );
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
