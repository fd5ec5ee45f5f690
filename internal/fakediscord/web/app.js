"use strict";
// The fakediscord web view: long-polls /ui/state and renders one channel
// as the chosen user sees it. Actions go to /ui/* and become real
// INTERACTION_CREATE events for the bot.

const params = new URLSearchParams(location.search);
let view = { user: params.get("user") || "", channel: params.get("channel") || "" };
let state = null;
let version = 0;
let pollGen = 0;
let suggestionIndex = -1;
let shownModal = "";

const $ = (id) => document.getElementById(id);
const el = (tag, cls, text) => {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
};
const palette = ["#5865f2", "#3ba55c", "#faa61a", "#ed4245", "#eb459e", "#747f8d"];
const colorFor = (id) => palette[Number(BigInt(id || "0") % 6n)];

function escapeHTML(s) {
  return s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]));
}

// viewerLocale is the client language of the user the page shows the
// channel to: Discord writes timestamps in the reader's language.
function viewerLocale() {
  const me = state && (state.users || []).find((u) => u.id === state.user);
  return (me && me.locale) || "en-US";
}

// relativeText is a relative timestamp ("in 3 hours", "dans 3 heures"): the
// largest unit that fits, rounded to the nearest whole one, so that 2 h 59
// reads "in 3 hours", never "in 2 hours".
function relativeText(d, locale) {
  const secs = (d.getTime() - Date.now()) / 1000;
  const a = Math.abs(secs);
  const [unit, n] = a < 45 ? ["second", 1] : a < 45 * 60 ? ["minute", 60] : a < 22 * 3600 ? ["hour", 3600]
    : a < 26 * 86400 ? ["day", 86400] : a < 320 * 86400 ? ["month", 2592000] : ["year", 31536000];
  return new Intl.RelativeTimeFormat(locale, { numeric: "always" }).format(Math.round(secs / n) || 0, unit);
}

// timestampText is a timestamp in one of Discord's styles, in the reader's
// language.
function timestampText(d, style) {
  const locale = viewerLocale();
  if (style === "R") return relativeText(d, locale);
  const opts = {
    t: { timeStyle: "short" }, T: { timeStyle: "medium" }, d: { dateStyle: "short" },
    D: { dateStyle: "long" }, f: { dateStyle: "long", timeStyle: "short" }, F: { dateStyle: "full", timeStyle: "short" },
  }[style];
  return d.toLocaleString(locale, opts);
}

// markdown renders the subset of Discord markdown the bot is likely to use,
// with user, role and channel mentions highlighted. A backslash before a
// mark shows the mark itself (\*, \_, \|, \<, …), as in Discord.
function markdown(text) {
  let s = escapeHTML(text || "");
  const kept = [];
  s = s.replace(/\\(&lt;|&gt;|&amp;|&quot;|&#39;|[\\*_~`|\[\]#@:()\-])/g, (_, c) => {
    kept.push(c);
    return "\u0000" + (kept.length - 1) + "\u0000";
  });
  s = s.replace(/`([^`]+)`/g, "<code>$1</code>");
  s = s.replace(/\*\*([^*]+)\*\*/g, "<b>$1</b>");
  s = s.replace(/__([^_]+)__/g, "<u>$1</u>");
  s = s.replace(/\*([^*]+)\*/g, "<i>$1</i>");
  s = s.replace(/~~([^~]+)~~/g, "<s>$1</s>");
  s = s.replace(/&lt;@!?(\d+)&gt;/g, (_, id) => `<span class="mention">@${escapeHTML((state && state.names[id]) || "unknown-user")}</span>`);
  s = s.replace(/&lt;@&amp;(\d+)&gt;/g, '<span class="mention">@role</span>');
  s = s.replace(/&lt;#(\d+)&gt;/g, (_, id) => {
    const c = state && state.channels.find((c) => c.id === id);
    return `<span class="mention">#${escapeHTML(c ? c.name : "channel")}</span>`;
  });
  s = s.replace(/@(everyone|here)\b/g, '<span class="mention">@$1</span>');
  // Masked links: [text](https://…), shown as their text.
  s = s.replace(/\[([^\]]+)\]\((https?:\/\/[^)\s]+)\)/g, '<a href="$2">$1</a>');
  // Timestamps, as Discord shows them in the reader's time zone:
  // <t:UNIX:STYLE>, R relative ("in 5 minutes"), the others absolute.
  // https://discord.com/developers/docs/reference#message-formatting-timestamp-styles
  s = s.replace(/&lt;t:(-?\d+)(?::([tTdDfFR]))?&gt;/g, (_, unix, style) => {
    const d = new Date(Number(unix) * 1000);
    const title = escapeHTML(d.toLocaleString(viewerLocale()));
    return `<span class="timestamp" title="${title}">${escapeHTML(timestampText(d, style || "f"))}</span>`;
  });
  return s.replace(/\u0000(\d+)\u0000/g, (_, i) => kept[Number(i)]);
}

async function post(path, body) {
  const r = await fetch(path, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(Object.assign({ user: view.user, channel: view.channel }, body)) });
  const j = await r.json().catch(() => ({ error: r.statusText }));
  if (!r.ok || j.error) throw new Error(j.error || r.statusText);
  return j;
}

function showError(msg) {
  const e = $("command-error");
  e.textContent = msg;
  e.hidden = !msg;
}

async function poll() {
  const gen = ++pollGen;
  for (;;) {
    try {
      const q = new URLSearchParams({ v: String(version), user: view.user, channel: view.channel });
      const r = await fetch("/ui/state?" + q.toString());
      const s = await r.json();
      if (gen !== pollGen) return;
      if (!s.unchanged) {
        state = s;
        version = s.version;
        view.user = s.user;
        view.channel = s.channel;
        render();
      }
    } catch (e) {
      if (gen !== pollGen) return;
      $("status").className = "down";
      $("status").textContent = "fakediscord unreachable";
      await new Promise((res) => setTimeout(res, 1000));
    }
  }
}

function refresh() {
  version = 0;
  const u = new URL(location.href);
  u.searchParams.set("user", view.user);
  u.searchParams.set("channel", view.channel);
  history.replaceState(null, "", u);
  poll();
}

function render() {
  const s = state;
  document.title = (s.guild ? s.guild.name + " · " : "") + "fakediscord";
  $("guild-name").textContent = s.guild ? s.guild.name + "  ·  " + s.guild.preferred_locale : "fakediscord";
  $("guild-icon").textContent = s.guild ? s.guild.name.slice(0, 1).toUpperCase() : "D";
  const chans = $("channels");
  chans.replaceChildren();
  for (const c of s.channels || []) {
    const d = el("div", "channel" + (c.id === s.channel ? " active" : ""), c.name);
    d.dataset.id = c.id;
    d.onclick = () => { view.channel = c.id; refresh(); };
    chans.append(d);
  }
  const users = $("users");
  users.replaceChildren();
  for (const u of s.users || []) {
    const d = el("div", "user" + (u.id === s.user ? " active" : ""));
    d.dataset.id = u.id;
    d.dataset.name = u.name;
    const av = el("span", "avatar", u.name.slice(0, 1).toUpperCase());
    av.style.background = colorFor(u.id);
    d.append(av, el("span", "", u.name), el("span", "locale", u.locale));
    d.onclick = () => { view.user = u.id; shownModal = ""; refresh(); };
    users.append(d);
  }
  const ch = (s.channels || []).find((c) => c.id === s.channel);
  $("channel-name").textContent = ch ? ch.name : "";
  const me = (s.users || []).find((u) => u.id === s.user);
  $("viewer").textContent = me ? "viewing as " + me.name + " (" + me.locale + ")" : "";
  $("box").placeholder = ch ? "Message #" + ch.name + " or type / for commands" : "";
  $("status").className = s.connected ? "ok" : "down";
  $("status").textContent = s.connected ? s.bot.name + " connected" : "bot not connected";
  const viol = $("violations");
  viol.replaceChildren(...s.violations.map((v) => el("li", "", v)));
  renderMessages(s);
  renderModal(s);
}

function renderMessages(s) {
  const box = $("messages");
  const atBottom = box.childElementCount === 0 || box.scrollHeight - box.scrollTop - box.clientHeight < 40;
  box.replaceChildren();
  for (const m of s.messages) box.append(renderMessage(m, s));
  if (atBottom) box.scrollTop = box.scrollHeight;
}

function renderMessage(m, s) {
  const wrap = el("div", "message");
  wrap.dataset.id = m.id;
  if (m.ephemeral) wrap.classList.add("ephemeral-msg");
  if (m.mentions.includes(s.user)) wrap.classList.add("mentioned");
  const av = el("div", "avatar", m.author.name.slice(0, 1).toUpperCase());
  av.style.background = m.author.bot ? "#5865f2" : colorFor(m.author.id);
  const body = el("div", "body");
  if (m.used_by) {
    const u = el("div", "used-by");
    const [who, ...rest] = m.used_by.split(" used ");
    u.append(el("b", "", who), document.createTextNode(" used "), el("b", "", rest.join(" used ")));
    body.append(u);
  }
  if (m.reply_to) body.append(el("div", "reply", m.reply_to));
  const meta = el("div", "meta");
  meta.append(el("span", "author", m.author.name));
  if (m.author.bot) meta.append(el("span", "bot-tag", "app"));
  meta.append(el("span", "time", new Date(m.time).toLocaleTimeString()));
  body.append(meta);
  if (m.failed) {
    body.append(el("div", "content failed", "This interaction failed"));
  } else if (m.loading) {
    body.append(el("div", "content loading", s.bot.name + " is thinking"));
  } else if (m.content) {
    const c = el("div", "content");
    c.innerHTML = markdown(m.content);
    if (m.edited) {
      const e = el("span", "edited", "(edited)");
      e.title = "edited " + m.edited_at + " (" + m.edits + " version" + (m.edits === 1 ? "" : "s") + " before)";
      c.append(e);
    }
    body.append(c);
  } else if (m.edited) {
    body.append(el("span", "edited", "(edited)"));
  }
  for (const e of m.embeds || []) body.append(renderEmbed(e));
  // An attachment an embed shows (attachment://name, resolved to its URL
  // by the server) is drawn in the embed only, as Discord's client does
  // (https://discord.com/developers/docs/reference#uploading-files).
  const shown = new Set();
  for (const e of m.embeds || []) {
    for (const x of [e.image, e.thumbnail]) if (x && x.url) shown.add(x.url);
  }
  for (const a of m.attachments || []) if (!shown.has(a.url)) body.append(renderAttachment(a));
  if (m.components && m.components.length) body.append(renderComponents(m));
  if (m.pinged.length) {
    body.append(el("div", "pinged", "pinged " + m.pinged.map((id) => "@" + (s.names[id] || id)).join(", ")));
  }
  if (m.ephemeral) {
    const n = el("div", "ephemeral-note", "Only you can see this · ");
    if (!m.failed) {
      const a = el("a", "", "Dismiss message");
      a.onclick = () => post("/ui/dismiss", { message: m.id }).catch((e) => showError(e.message));
      n.append(a);
    }
    body.append(n);
  }
  wrap.append(av, body);
  return wrap;
}

function renderEmbed(e) {
  const d = el("div", "embed");
  d.style.borderLeftColor = e.color ? "#" + e.color.toString(16).padStart(6, "0") : "#1e1f22";
  if (e.author && e.author.name) d.append(el("div", "embed-author", e.author.name));
  if (e.title) {
    const x = el("div", "embed-title");
    x.innerHTML = markdown(e.title);
    d.append(x);
  }
  if (e.description) {
    const x = el("div", "embed-description");
    x.innerHTML = markdown(e.description);
    d.append(x);
  }
  if (e.fields && e.fields.length) {
    const fs = el("div", "embed-fields");
    for (const f of e.fields) {
      const fd = el("div", "embed-field" + (f.inline ? " inline" : ""));
      const v = el("div", "embed-field-value");
      v.innerHTML = markdown(f.value);
      const n = el("div", "embed-field-name");
      n.innerHTML = markdown(f.name);
      fd.append(n, v);
      fs.append(fd);
    }
    d.append(fs);
  }
  if (e.image && e.image.url) d.append(image(e.image.url, "embed-image"));
  if (e.thumbnail && e.thumbnail.url) {
    const th = image(e.thumbnail.url, "embed-thumbnail");
    d.prepend(th);
  }
  if (e.footer && e.footer.text) d.append(el("div", "embed-footer", e.footer.text));
  return d;
}

function image(url, cls) {
  const img = document.createElement("img");
  img.className = cls;
  img.src = url;
  img.alt = "";
  img.loading = "lazy";
  return img;
}

function renderAttachment(a) {
  if ((a.content_type || "").startsWith("image/")) {
    const img = image(a.url, "attachment-image");
    img.alt = a.description || a.filename;
    return img;
  }
  const link = el("a", "attachment-file", a.filename + " (" + a.size + " bytes)");
  link.href = a.url;
  return link;
}

const styles = { 1: "primary", 2: "secondary", 3: "success", 4: "danger", 5: "link-style", 6: "primary" };

function renderComponents(m) {
  const box = el("div", "components");
  for (const row of m.components) {
    const r = el("div", "row");
    for (const c of row.components || []) {
      if (c.type === 2) {
        const b = el("button", "btn " + (styles[c.style] || "secondary"), (c.emoji && c.emoji.name ? c.emoji.name + " " : "") + (c.label || ""));
        b.disabled = !!c.disabled;
        b.dataset.customId = c.custom_id || "";
        if (c.style === 5) {
          b.onclick = () => window.open(c.url, "_blank", "noopener");
        } else {
          b.onclick = () => post("/ui/click", { message: m.id, custom_id: c.custom_id }).then(() => showError("")).catch((e) => showError(e.message));
        }
        r.append(b);
      } else if ([3, 5, 6, 7, 8].includes(c.type)) {
        r.append(renderSelect(m, c));
      }
    }
    box.append(r);
  }
  return box;
}

function renderSelect(m, c) {
  const max = c.max_values === undefined ? 1 : c.max_values;
  const min = c.min_values === undefined ? 1 : c.min_values;
  const wrap = el("div", "select-wrap");
  const sel = el("select", "menu");
  sel.dataset.customId = c.custom_id;
  sel.disabled = !!c.disabled;
  let options = c.options || [];
  if (c.type !== 3) {
    // User, role, mentionable and channel selects: offer the known users / channels.
    options = c.type === 8
      ? state.channels.map((ch) => ({ label: "#" + ch.name, value: ch.id }))
      : state.users.map((u) => ({ label: "@" + u.name, value: u.id }));
  }
  if (max > 1) {
    sel.multiple = true;
  } else {
    const ph = el("option", "", c.placeholder || "Make a selection");
    ph.value = "";
    ph.disabled = true;
    ph.selected = true;
    sel.append(ph);
  }
  for (const o of options) {
    const opt = el("option", "", (o.emoji && o.emoji.name ? o.emoji.name + " " : "") + o.label + (o.description ? " — " + o.description : ""));
    opt.value = o.value;
    sel.append(opt);
  }
  const send = () => {
    const values = Array.from(sel.selectedOptions).map((o) => o.value).filter((v) => v !== "");
    if (values.length < min || values.length > max) {
      showError(`pick between ${min} and ${max} options`);
      return;
    }
    post("/ui/select", { message: m.id, custom_id: c.custom_id, values }).then(() => showError("")).catch((e) => showError(e.message));
  };
  wrap.append(sel);
  if (max > 1) {
    const ok = el("button", "btn primary", "Choose");
    ok.style.marginLeft = "8px";
    ok.onclick = send;
    wrap.append(ok);
  } else {
    sel.onchange = send;
  }
  return wrap;
}

function renderModal(s) {
  const back = $("modal-backdrop");
  if (!s.modal) {
    back.hidden = true;
    shownModal = "";
    return;
  }
  if (shownModal === s.modal.interaction) return; // keep what the user typed
  shownModal = s.modal.interaction;
  $("modal-title").textContent = s.modal.title;
  $("modal-error").hidden = true;
  const box = $("modal-inputs");
  box.replaceChildren();
  for (const input of s.modal.inputs) {
    const f = el("div", "field");
    const label = el("label", "", input.label);
    const required = input.required === undefined || input.required;
    if (required) label.append(el("span", "req", " *"));
    const field = input.style === 2 ? el("textarea") : el("input");
    field.name = input.custom_id;
    field.value = input.value || "";
    field.placeholder = input.placeholder || "";
    if (input.max_length) field.maxLength = input.max_length;
    f.append(label, field);
    box.append(f);
  }
  back.hidden = false;
  const first = box.querySelector("input,textarea");
  if (first) first.focus();
}

$("modal").onsubmit = (ev) => {
  ev.preventDefault();
  const fields = {};
  for (const f of $("modal-inputs").querySelectorAll("input,textarea")) fields[f.name] = f.value;
  post("/ui/modal", { interaction: state.modal.interaction, fields })
    .then(() => { $("modal-backdrop").hidden = true; })
    .catch((e) => { $("modal-error").textContent = e.message; $("modal-error").hidden = false; });
};
$("modal-cancel").onclick = () => {
  post("/ui/dismiss", { interaction: state.modal.interaction }).catch(() => {});
  $("modal-backdrop").hidden = true;
};

// --- command box ---

function suggestions() {
  const v = $("box").value;
  if (!v.startsWith("/") || !state) return [];
  const words = v.slice(1).trim().split(/\s+/).filter((w) => !w.includes(":"));
  const typed = words.join(" ");
  return (state.commands || []).filter((c) => c.slice(1).startsWith(typed) || typed.startsWith(c.slice(1).split(" [")[0].split(" ").filter((w) => !w.includes(":")).join(" ")));
}

function renderSuggestions() {
  const list = suggestions();
  const box = $("suggestions");
  box.replaceChildren(...list.map((c, i) => {
    const d = el("div", "suggestion" + (i === suggestionIndex ? " sel" : ""), c);
    d.onmousedown = (ev) => { ev.preventDefault(); complete(c); };
    return d;
  }));
  box.hidden = list.length === 0;
}

function complete(usage) {
  const path = usage.split(" ").filter((w) => !w.includes(":") && !w.startsWith("[")).join(" ");
  $("box").value = path + " ";
  suggestionIndex = -1;
  renderSuggestions();
  $("box").focus();
}

$("box").addEventListener("input", () => { suggestionIndex = -1; renderSuggestions(); });
$("box").addEventListener("blur", () => { $("suggestions").hidden = true; });
$("box").addEventListener("keydown", (ev) => {
  const list = suggestions();
  if (ev.key === "ArrowDown" && list.length) { suggestionIndex = (suggestionIndex + 1) % list.length; renderSuggestions(); ev.preventDefault(); return; }
  if (ev.key === "ArrowUp" && list.length) { suggestionIndex = (suggestionIndex + list.length - 1) % list.length; renderSuggestions(); ev.preventDefault(); return; }
  if (ev.key === "Tab" && list.length) { complete(list[Math.max(0, suggestionIndex)]); ev.preventDefault(); return; }
  if (ev.key !== "Enter") return;
  ev.preventDefault();
  if (suggestionIndex >= 0 && list[suggestionIndex]) { complete(list[suggestionIndex]); return; }
  const line = $("box").value.trim();
  if (!line) return;
  post("/ui/command", { line }).then(() => { $("box").value = ""; showError(""); renderSuggestions(); }).catch((e) => showError(e.message));
});

poll();
