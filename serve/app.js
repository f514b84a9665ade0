// lore serve's page: the chat box, the engine switch, the search and the live
// reload. Every piece of HTML it puts in the page was made and escaped on the
// server by Go's html/template; the typed messages are kept in
// sessionStorage, so neither a reload of the files nor of the page loses them.
(function () {
  "use strict";
  const $ = (id) => document.getElementById(id);
  const store = "lore-serve-messages:" + location.host;
  let messages = [];
  try { messages = JSON.parse(sessionStorage.getItem(store) || "[]"); } catch (e) { messages = []; }
  if (!Array.isArray(messages)) messages = [];
  let version = Number(document.body.dataset.version);
  let seq = 0;

  function save() {
    try { sessionStorage.setItem(store, JSON.stringify(messages)); } catch (e) { /* private mode */ }
  }

  function status(text) { $("status").textContent = text; }

  function show(id, on) { $(id).classList.toggle("hidden", !on); }

  function apply(v) {
    version = v.version;
    document.body.dataset.version = String(v.version);
    $("typed").innerHTML = v.chat;
    $("lint").innerHTML = v.lint || "";
    const failed = Boolean(v.error);
    show("error", failed);
    $("errortext").textContent = v.error || "";
    for (const id of ["prompt", "trace", "tokens"]) {
      show(id, !failed);
      if (!failed) $(id).innerHTML = v.parts[id];
    }
    if (!failed) {
      $("meta").innerHTML = v.parts.meta;
      $("warnings").innerHTML = v.parts.warnings;
    } else {
      $("warnings").innerHTML = "";
    }
    const n = v.fired.length;
    status(failed ? "the files have errors: fix them and the page follows" :
      messages.length ? `${messages.length} typed ${messages.length === 1 ? "message" : "messages"}; ${n} ${n === 1 ? "entry" : "entries"} fired by them` : "");
    search();
  }

  async function refresh() {
    const mine = ++seq;
    try {
      const r = await fetch("/api/render", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ engine: $("engine").value, messages: messages, search: $("search").value }),
      });
      if (!r.ok) throw new Error(await r.text());
      const v = await r.json();
      if (mine === seq) apply(v); // a later request is on its way: its answer wins
    } catch (e) {
      if (mine === seq) status("lore serve did not answer: " + e.message);
    }
  }

  function add(role) {
    const box = $("message");
    const text = box.value;
    if (text.trim() === "") { box.focus(); return; }
    messages.push({ role: role, content: text });
    save();
    box.value = "";
    box.focus();
    refresh();
  }

  // The search hides the rows of the trace's "In the prompt" table that do
  // not hold every word typed; the server narrows the table of entries left
  // out (by id, name and keywords), which is too long to send whole for a
  // large book.
  function search() {
    const words = $("search").value.toLowerCase().split(/\s+/).filter(Boolean);
    let shown = 0, all = 0;
    for (const tr of document.querySelectorAll("#trace h3:first-of-type + table tbody tr")) {
      all++;
      const text = tr.textContent.toLowerCase();
      const hit = words.every((w) => text.includes(w));
      tr.classList.toggle("hidden", !hit);
      if (hit) shown++;
    }
    if (words.length) status(`${shown} of the ${all} entries in the prompt match`);
  }

  let searchTimer = 0;
  function searchAgain() {
    search();
    clearTimeout(searchTimer);
    searchTimer = setTimeout(refresh, 150);
  }

  $("chatform").addEventListener("submit", (e) => { e.preventDefault(); add("user"); });
  $("reply").addEventListener("click", () => add("assistant"));
  $("message").addEventListener("keydown", (e) => {
    if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) { e.preventDefault(); add("user"); }
  });
  $("reset").addEventListener("click", () => { messages = []; save(); refresh(); });
  $("engine").addEventListener("change", refresh);
  $("search").addEventListener("input", searchAgain);

  // The server says the files' version when the stream opens and after
  // every reload; a version other than the page's means render again.
  const events = new EventSource("/api/events");
  events.addEventListener("version", (e) => {
    if (Number(e.data) !== version) refresh();
  });
  events.addEventListener("error", () => status("lost lore serve; retrying…"));
  events.addEventListener("open", () => { if ($("status").textContent.startsWith("lost")) status(""); });

  if (messages.length) refresh();
})();
