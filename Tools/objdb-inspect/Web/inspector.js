// ObjDB Inspector: a page of objdb-inspect serve. Plain JavaScript, no build step.
// Every stored value reaches the page through textContent or an attribute, never as markup.
"use strict";

(() => {
  const main = document.getElementById("main");
  const liveState = document.getElementById("live-state");
  let schema = null;          // /api/schema
  let info = null;            // /api/info
  let viewController = null;  // aborts the current view's requests
  let liveSource = null;      // the current view's EventSource

  // ---------- helpers ----------

  function el(tag, attributes, ...children) {
    const node = document.createElement(tag);
    for (const [name, value] of Object.entries(attributes || {})) {
      if (value === undefined || value === null || value === false) continue;
      if (name === "class") node.className = value;
      else if (name === "text") node.textContent = value;
      else if (name.startsWith("on")) node.addEventListener(name.slice(2), value);
      else node.setAttribute(name, value === true ? "" : String(value));
    }
    for (const child of children.flat()) {
      if (child === null || child === undefined || child === false) continue;
      node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return node;
  }

  function svg(tag, attributes, ...children) {
    const node = document.createElementNS("http://www.w3.org/2000/svg", tag);
    for (const [name, value] of Object.entries(attributes || {})) {
      if (name === "text") node.textContent = value;
      else node.setAttribute(name, String(value));
    }
    for (const child of children) node.append(child);
    return node;
  }

  /// A link inside the app: navigates without reloading.
  function link(href, ...children) {
    return el("a", { href, "data-route": true }, ...children);
  }

  class APIError extends Error {
    constructor(error, status) {
      super(error && error.message || "request failed");
      this.code = error && error.code; this.position = error && error.position; this.status = status;
    }
  }

  async function api(path, parameters) {
    const query = new URLSearchParams();
    for (const [name, value] of Object.entries(parameters || {})) {
      if (value !== undefined && value !== null && value !== "") query.set(name, value);
    }
    const response = await fetch(`/api/${path}?${query}`, {
      credentials: "same-origin", signal: viewController && viewController.signal,
    });
    const body = await response.json();
    if (!response.ok) throw new APIError(body.error, response.status);
    return body;
  }

  function typeSchema(name) {
    return schema && schema.types.find((type) => type.name === name);
  }

  function objectPath(type, key) {
    return `/objects/${encodeURIComponent(type)}/${encodeURIComponent(key)}`;
  }

  // Controls and bidirectional overrides show as their code, so stored text can neither hide
  // nor reorder what is around it.
  const invisible = /[\u0000-\u0008\u000b-\u001f\u007f\u200e\u200f\u202a-\u202e\u2066-\u2069]/u;
  function textNode(text) {
    if (!invisible.test(text)) return document.createTextNode(text);
    const fragment = document.createDocumentFragment();
    let run = "";
    for (const character of text) {
      if (invisible.test(character)) {
        if (run) fragment.append(run);
        run = "";
        const code = character.codePointAt(0).toString(16).toUpperCase().padStart(4, "0");
        fragment.append(el("span", { class: "ctl", title: "an invisible control character" }, `U+${code}`));
      } else {
        run += character;
      }
    }
    if (run) fragment.append(run);
    return fragment;
  }

  function formatBytes(size) {
    if (size < 1024) return `${size} bytes`;
    if (size < 1 << 20) return `${(size / 1024).toFixed(1)} KiB`;
    if (size < 1 << 30) return `${(size / (1 << 20)).toFixed(1)} MiB`;
    return `${(size / (1 << 30)).toFixed(2)} GiB`;
  }

  function localTime(iso) {
    const date = new Date(iso);
    return Number.isNaN(date.getTime()) ? "" : date.toLocaleString(undefined, { timeZoneName: "short" });
  }

  function hexDump(hex, size) {
    const lines = [];
    for (let offset = 0; offset < hex.length; offset += 32) {
      const chunk = hex.slice(offset, offset + 32).match(/../g) || [];
      lines.push(`${(offset / 2).toString(16).padStart(8, "0")}  ${chunk.join(" ")}`);
    }
    if (hex.length / 2 < size) lines.push(`… ${size - hex.length / 2} more bytes`);
    return lines.join("\n");
  }

  /// A value as a table cell shows it: one line.
  function cellValue(value, property) {
    if (value === null || value === undefined) return el("span", { class: "null" }, "null");
    if (typeof value === "boolean" || typeof value === "number") return document.createTextNode(String(value));
    if (typeof value === "string") return textNode(value);
    if (Array.isArray(value)) return document.createTextNode(`[${value.length} items]`);
    if ("truncated" in value) {
      return el("span", { title: `${value.length} characters; the object's page shows all` },
        textNode(value.truncated), "…", el("span", { class: "more" }, ` (${value.length})`));
    }
    if ("date" in value) return el("time", { datetime: value.date, title: localTime(value.date) }, value.date);
    if ("data" in value) return el("span", { title: value.data.match(/../g)?.join(" ") || "" }, formatBytes(value.size));
    if ("uuid" in value) return document.createTextNode(value.uuid);
    if ("decimal" in value) return document.createTextNode(value.decimal);
    if ("link" in value) return link(objectPath(value.link.type, value.link.key), textNode(`${value.link.type}(${value.link.key})`));
    if ("embedded" in value) return textNode(JSON.stringify(value.embedded));
    if ("map" in value) return textNode(JSON.stringify(value.map));
    return textNode(JSON.stringify(value));
  }

  /// A value as an object's page shows it: whole, formatted by type.
  function fullValue(value, property) {
    if (value === null || value === undefined) return el("span", { class: "null" }, "null");
    if (typeof value === "string") {
      if (value.length <= 300) return textNode(value);
      return el("details", { class: "fold" },
        el("summary", {}, textNode(value.slice(0, 200)), "… ", el("span", { class: "more" }, `(${value.length} characters)`)),
        el("div", {}, textNode(value)));
    }
    if (Array.isArray(value)) {
      const list = el("ol", { start: 0 });
      for (const element of value.slice(0, 200)) list.append(el("li", {}, fullValue(element, property)));
      if (value.length > 200) list.append(el("li", { class: "more" }, `… ${value.length - 200} more`));
      return list;
    }
    if (typeof value === "object" && "date" in value) {
      return el("span", {}, el("time", { datetime: value.date }, `${value.date} (UTC)`), el("br"),
        el("span", { class: "muted" }, `${localTime(value.date)} (local)`));
    }
    if (typeof value === "object" && "data" in value) {
      return el("div", {}, el("div", { class: "muted" }, formatBytes(value.size)), el("div", { class: "hex" }, hexDump(value.data, value.size)));
    }
    if (typeof value === "object" && "embedded" in value) return objectTable(value.embedded);
    if (typeof value === "object" && "map" in value) return objectTable(value.map);
    return cellValue(value, property);
  }

  function objectTable(members) {
    const table = el("table");
    for (const [name, member] of Object.entries(members)) {
      table.append(el("tr", {}, el("th", {}, textNode(name)), el("td", { class: "value" }, fullValue(member))));
    }
    return table;
  }

  function setLive(state) {
    liveState.textContent = state === "on" ? "● live" : state === "off" ? "○ reconnecting" : "○ idle";
    liveState.classList.toggle("on", state === "on");
  }

  function follow(path, parameters, onChange) {
    const query = new URLSearchParams();
    for (const [name, value] of Object.entries(parameters)) {
      if (value !== undefined && value !== null && value !== "") query.set(name, value);
    }
    const source = new EventSource(`/api/${path}?${query}`);
    source.addEventListener("open", () => setLive("on"));
    source.addEventListener("error", () => setLive("off"));
    source.addEventListener("change", (event) => onChange(JSON.parse(event.data)));
    liveSource = source;
    return source;
  }

  // ---------- routing ----------

  function navigate(href, replace) {
    if (replace) history.replaceState(null, "", href); else history.pushState(null, "", href);
    render();
  }

  document.addEventListener("click", (event) => {
    const anchor = event.target.closest("a[data-route]");
    if (!anchor || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey) return;
    event.preventDefault();
    navigate(anchor.getAttribute("href"));
  });
  window.addEventListener("popstate", () => render());

  async function render() {
    if (viewController) viewController.abort();
    viewController = new AbortController();
    if (liveSource) liveSource.close();
    liveSource = null;
    setLive("idle");
    const parts = location.pathname.split("/").filter(Boolean).map(decodeURIComponent);
    const parameters = new URLSearchParams(location.search);
    for (const anchor of document.querySelectorAll("#type-list a")) {
      anchor.classList.toggle("current", parts[0] === "types" && anchor.dataset.type === parts[1]);
    }
    try {
      if (parts.length === 0) await overview();
      else if (parts[0] === "schema") await schemaView();
      else if (parts[0] === "check") checkView();
      else if (parts[0] === "types" && parts[1]) await browse(parts[1], parameters);
      else if (parts[0] === "objects" && parts.length === 3) await objectView(parts[1], parts[2]);
      else if (parts[0] === "objects" && parts.length === 4) await relatedView(parts[1], parts[2], parts[3], parameters);
      else main.replaceChildren(el("h1", {}, "Not found"), el("p", {}, link("/", "Back to the overview")));
    } catch (error) {
      if (error.name === "AbortError") return;
      main.replaceChildren(el("h1", {}, "Something went wrong"), el("p", { class: "error" }, textNode(error.message)));
    }
  }

  // ---------- overview ----------

  async function overview() {
    info = await api("info");
    const facts = el("dl", { class: "facts" });
    const fact = (name, value) => facts.append(el("dt", {}, name), el("dd", {}, textNode(String(value))));
    fact("File", info.path);
    fact("Format version", info.formatVersion);
    fact("Schema version", info.schemaVersion ?? "none stored");
    fact("File size", formatBytes(info.fileSize));
    fact("Map", `${formatBytes(info.mapUsed)} used of ${formatBytes(info.mapSize)} (${(info.mapUsed * 100 / info.mapSize).toFixed(2)}%)`);
    fact("Page size", `${info.pageSize} bytes`);
    fact("Last version", info.version);
    fact("Readers", `${info.readers.open} open, ${info.readers.slotsUsed} of ${info.readers.slots} slots used, ${info.readers.staleCleared} stale cleared`);
    fact("Oldest pinned", info.readers.oldestPinnedVersion ?? "none");
    fact("Query time limit", `${info.server.timeLimitMs} ms`);
    const types = el("table", {}, el("tr", {}, el("th", {}, "Type"), el("th", { class: "num" }, "Objects")));
    for (const type of info.types) {
      types.append(el("tr", {}, el("td", {}, link(`/types/${encodeURIComponent(type.name)}`, textNode(type.name))),
        el("td", { class: "num" }, type.count.toLocaleString())));
    }
    const databases = el("table", {}, el("tr", {}, ...["Database", "Depth", "Branch", "Leaf", "Overflow", "Entries"].map((name, index) => el("th", { class: index ? "num" : "" }, name))));
    for (const database of info.databases) {
      databases.append(el("tr", {}, el("td", { class: "mono" }, textNode(database.name)),
        ...[database.depth, database.branchPages, database.leafPages, database.overflowPages, database.entries].map((value) => el("td", { class: "num" }, value.toLocaleString()))));
    }
    main.replaceChildren(el("h1", {}, "Overview"), facts, el("h2", {}, "Types"), types, el("h2", {}, "Databases"), databases);
  }

  // ---------- schema ----------

  async function schemaView() {
    const cards = el("div", { class: "cards" });
    for (const type of schema.types) {
      const table = el("table", {}, el("tr", {}, el("th", {}, "Property"), el("th", {}, "Type"), el("th", {}, "")));
      for (const property of type.properties) {
        const tags = [];
        if (property.primaryKey) tags.push(el("span", { class: "tag" }, "primary key"));
        if (property.indexed) tags.push(el("span", { class: "tag" }, property.indexed === "unique" ? "unique index" : "indexed"));
        if (property.originProperty) tags.push(el("span", { class: "tag" }, `backlinks of ${property.objectType}.${property.originProperty}`));
        table.append(el("tr", {}, el("td", { class: "mono" }, textNode(property.name)), el("td", { class: "mono" }, textNode(property.description)), el("td", {}, tags)));
      }
      cards.append(el("div", { class: "card" },
        el("h3", {}, type.embedded ? textNode(`${type.name} (embedded)`) : link(`/types/${encodeURIComponent(type.name)}`, textNode(type.name)),
          type.primaryKey ? el("span", { class: "tag" }, `key ${type.primaryKey}`) : null),
        table));
    }
    main.replaceChildren(el("h1", {}, "Schema", el("span", { class: "sub" }, `version ${schema.version}`)),
      diagram(), el("div", { class: "legend" },
        el("span", { class: "k-link" }, "━ link"), el("span", { class: "k-list" }, "━ list or set of links"),
        el("span", { class: "k-backlink" }, "╌ backlinks")),
      cards);
  }

  /// Types as boxes on an ellipse; links, lists and backlinks as labelled curves between them,
  /// the curves between two types spread apart.
  function diagram() {
    const types = schema.types;
    const width = 900, height = types.length <= 2 ? 300 : Math.max(380, 120 + types.length * 45);
    const box = { w: 150, h: 34 };
    const places = new Map();
    types.forEach((type, index) => {
      const angle = Math.PI + (2 * Math.PI * index) / Math.max(types.length, 1);
      const x = types.length === 1 ? width / 2 : width / 2 + (width / 2 - 110) * Math.cos(angle);
      const y = types.length === 1 ? height / 2 : height / 2 + (height / 2 - 50) * Math.sin(angle);
      places.set(type.name, { x, y });
    });
    const edges = [];
    for (const type of types) {
      for (const property of type.properties) {
        if (!property.objectType || !places.has(property.objectType)) continue;
        const kind = property.type === "linkingObjects" ? "backlink" : property.collection === "single" ? "link" : "list";
        edges.push({ from: type.name, to: property.objectType, kind, label: `${property.name}${kind === "list" ? "[]" : ""}` });
      }
    }
    const pairs = new Map();
    for (const edge of edges) {
      const pair = [edge.from, edge.to].sort().join("\u0000");
      if (!pairs.has(pair)) pairs.set(pair, []);
      pairs.get(pair).push(edge);
    }
    const drawing = svg("svg", { class: "diagram", viewBox: `0 0 ${width} ${height}`, role: "img", "aria-label": "links between types" });
    drawing.append(svg("defs", {}, svg("marker", { id: "arrow", viewBox: "0 0 10 10", refX: 10, refY: 5, markerWidth: 7, markerHeight: 7, orient: "auto-start-reverse" },
      svg("path", { d: "M 0 0 L 10 5 L 0 10 z", fill: "#5b6b86" }))));
    for (const group of pairs.values()) {
      group.forEach((edge, index) => {
        const from = places.get(edge.from), to = places.get(edge.to);
        let d, labelX, labelY;
        if (edge.from === edge.to) {
          const lift = 50 + 28 * index;
          d = `M ${from.x + 30} ${from.y - box.h / 2} C ${from.x + 60} ${from.y - lift - 20}, ${from.x - 60} ${from.y - lift - 20}, ${from.x - 30} ${from.y - box.h / 2}`;
          labelX = from.x; labelY = from.y - lift - 8;
        } else {
          // The normal of the pair's own direction, so every curve of the pair bends the same way round.
          const [first, second] = [edge.from, edge.to].sort().map((name) => places.get(name));
          const dx = second.x - first.x, dy = second.y - first.y, length = Math.hypot(dx, dy) || 1;
          const offset = (index - (group.length - 1) / 2) * 70;
          const cx = (from.x + to.x) / 2 - (dy / length) * offset, cy = (from.y + to.y) / 2 + (dx / length) * offset;
          const ux = (to.x - from.x) / length, uy = (to.y - from.y) / length;
          const start = { x: from.x + ux * (box.w / 2), y: from.y + uy * (box.h / 2) };
          const end = { x: to.x - ux * (box.w / 2 + 2), y: to.y - uy * (box.h / 2 + 2) };
          d = `M ${start.x} ${start.y} Q ${cx} ${cy} ${end.x} ${end.y}`;
          labelX = (start.x + 2 * cx + end.x) / 4; labelY = (start.y + 2 * cy + end.y) / 4 - 4;
        }
        drawing.append(svg("path", { d, class: edge.kind, "marker-end": "url(#arrow)" }));
        drawing.append(svg("text", { x: labelX, y: labelY, class: "edge", "text-anchor": "middle", text: edge.label }));
      });
    }
    for (const type of types) {
      const place = places.get(type.name);
      const group = svg("g", {});
      group.append(svg("rect", { x: place.x - box.w / 2, y: place.y - box.h / 2, width: box.w, height: box.h, rx: 6 }));
      group.append(svg("text", { x: place.x, y: place.y + 4, class: "title", "text-anchor": "middle", text: type.name }));
      drawing.append(group);
    }
    return drawing;
  }

  // ---------- browsing a type ----------

  function parseSort(text) {
    return (text || "").split(",").filter(Boolean).map((field) => ({ name: field.replace(/^-/, ""), descending: field.startsWith("-") }));
  }

  async function browse(typeName, parameters) {
    const type = typeSchema(typeName);
    if (!type) { main.replaceChildren(el("h1", {}, "No such type"), el("p", {}, textNode(typeName))); return; }
    const state = {
      q: parameters.get("q") || "", sort: parameters.get("sort") || "", columns: parameters.get("columns") || "",
      after: parameters.get("after"), before: parameters.get("before"), last: parameters.get("last"),
    };
    const href = (changes) => {
      const next = { ...state, after: null, before: null, last: null, ...changes };
      const query = new URLSearchParams();
      for (const name of ["q", "sort", "columns", "after", "before", "last"]) if (next[name]) query.set(name, next[name]);
      const text = query.toString();
      return `/types/${encodeURIComponent(typeName)}${text ? `?${text}` : ""}`;
    };

    const title = el("h1", {}, textNode(typeName), el("span", { class: "sub", id: "count" }, ""));
    const input = el("input", { class: "query", id: "query", type: "text", spellcheck: "false", autocomplete: "off", value: state.q,
      placeholder: "Realm query: retweetCount > 10 AND text CONTAINS[c] 'swift' SORT(createdAt DESC) LIMIT(100)", "aria-label": "query" });
    const errorBox = el("div", { id: "query-error" });
    const planBox = el("div", { id: "plan" });
    const runButton = el("button", { id: "run", type: "submit" }, "Run");
    const explainButton = el("button", { id: "explain", type: "button" }, "Explain");
    const exportLink = (format) => el("a", { class: "button", id: `export-${format}`, download: `${typeName}.${format}`,
      href: `/api/export?${new URLSearchParams({ type: typeName, format, ...(state.q ? { q: state.q } : {}), ...(state.sort ? { sort: state.sort } : {}), ...(state.columns ? { columns: state.columns } : {}) })}` }, `Export ${format}`);
    const shownColumns = state.columns ? state.columns.split(",") : type.properties.map((property) => property.name);
    const chooser = el("details", { class: "columns" }, el("summary", { class: "button" }, "Columns"),
      el("div", { class: "menu" }, type.properties.map((property) => el("label", {},
        el("input", { type: "checkbox", value: property.name, checked: shownColumns.includes(property.name),
          onchange: () => {
            const chosen = [...chooser.querySelectorAll("input:checked")].map((box) => box.value);
            const all = chosen.length === type.properties.length;
            navigate(href({ columns: all || chosen.length === 0 ? "" : chosen.join(",") }), true);
          } }), " ", textNode(property.name)))));
    const form = el("form", { class: "toolbar", onsubmit: (event) => { event.preventDefault(); submit(); } },
      input, runButton, explainButton, chooser, exportLink("ndjson"), exportLink("csv"));
    const table = el("table", { id: "objects" });
    const pager = el("div", { class: "pager" });
    main.replaceChildren(title, form, errorBox, planBox, table, pager);

    function showQueryError(error, text) {
      input.classList.add("invalid");
      const children = [el("div", { class: "error", id: "error-message" }, textNode(error.message))];
      if (Number.isInteger(error.position)) {
        // The position counts Unicode scalars, as Array.from does.
        const typed = Array.from(text);
        const at = Math.min(error.position, typed.length);
        children.push(el("pre", { class: "caret-view" }, el("span", { id: "error-text" }, textNode(typed.join(""))), "\n",
          el("span", { class: "caret", id: "caret" }, " ".repeat(at) + "^")));
      }
      errorBox.replaceChildren(...children);
    }

    async function check(text) {
      const answer = await api("explain", { type: typeName, q: text, sort: state.sort });
      if (!answer.ok) { showQueryError(answer.error, text); return null; }
      input.classList.remove("invalid");
      errorBox.replaceChildren();
      return answer.plan;
    }

    async function submit() {
      const text = input.value.trim();
      if (await check(text) === null) return;
      navigate(href({ q: text }));
    }

    explainButton.addEventListener("click", async () => {
      const plan = await check(input.value.trim());
      if (plan !== null) planBox.replaceChildren(el("div", { class: "plan mono", id: "plan-text" }, textNode(plan)));
    });

    if (state.q && await check(state.q) === null) { table.replaceChildren(); return; }
    const request = { type: typeName, q: state.q, sort: state.sort, columns: state.columns, after: state.after, before: state.before, last: state.last };
    let page;
    try {
      page = await api("objects", request);
    } catch (error) {
      if (error.name === "AbortError") throw error;
      errorBox.replaceChildren(el("div", { class: "error", id: "error-message" }, textNode(error.message)));
      return;
    }
    const sorts = parseSort(state.sort);
    const columns = page.columns.map((name) => type.properties.find((property) => property.name === name));
    let rows = page.objects;

    function header() {
      const row = el("tr", {}, el("th", {}, "key"));
      for (const property of columns) {
        const sort = sorts.find((entry) => entry.name === property.name);
        const sortable = property.collection === "single" && property.type !== "linkingObjects";
        const th = el("th", { class: sortable ? "sortable" : "", "data-column": property.name, title: sortable ? "sort by this column" : property.description },
          textNode(property.name), sort ? el("span", { class: "arrow" }, sort.descending ? "▼" : "▲") : null);
        if (sortable) {
          th.addEventListener("click", () => {
            // ascending, then descending, then not sorted by it
            const next = !sort ? property.name : !sort.descending ? `-${property.name}` : "";
            navigate(href({ sort: next }));
          });
        }
        row.append(th);
      }
      return row;
    }

    function rowNode(object, marks) {
      const tr = el("tr", { "data-key": object.key });
      if (marks.inserted) tr.classList.add("inserted");
      if (object.damaged) {
        tr.append(el("td", {}, textNode(object.key ?? "?")), el("td", { class: "error", colspan: columns.length }, textNode(object.damaged)));
        return tr;
      }
      tr.append(el("td", { class: "cell" }, link(objectPath(typeName, object.key), textNode(object.key))));
      for (const property of columns) {
        let content;
        if (property.name in object.counts) {
          const count = object.counts[property.name];
          const label = `${count.toLocaleString()} ${property.type === "linkingObjects" ? (count === 1 ? "backlink" : "backlinks") : count === 1 ? "item" : "items"}`;
          content = property.objectType && property.type !== "embedded"
            ? link(`${objectPath(typeName, object.key)}/${encodeURIComponent(property.name)}`, label)
            : document.createTextNode(label);
        } else {
          content = cellValue(object.values[property.name], property);
        }
        const numeric = ["int", "int8", "int16", "int32", "int64", "float", "double", "decimal"].includes(property.type) || property.name in object.counts;
        const td = el("td", { class: numeric ? "cell num" : "cell", "data-column": property.name }, content);
        if (marks.flash && marks.flash(property.name)) td.classList.add("flash");
        tr.append(td);
      }
      return tr;
    }

    function draw(objects, marksOf) {
      const body = [header()];
      if (objects.length === 0) body.push(el("tr", {}, el("td", { colspan: columns.length + 1, class: "muted" }, state.q ? "No object matches." : "No objects.")));
      for (const object of objects) body.push(rowNode(object, marksOf(object)));
      table.replaceChildren(...body);
    }

    function drawPager(current) {
      const button = (label, id, target, enabled) => el("button", { id, type: "button", disabled: !enabled, onclick: () => navigate(href(target)) }, label);
      pager.replaceChildren(
        button("« First", "first", {}, Boolean(current.previous)),
        button("‹ Previous", "previous", { before: current.previous }, Boolean(current.previous)),
        button("Next ›", "next", { after: current.next }, Boolean(current.next)),
        button("Last »", "last", { last: "1" }, Boolean(current.next)),
        el("span", { class: "status", id: "page-status" }, `${rows.length} shown · version ${current.version}`));
    }

    function showCount(count) {
      const node = document.getElementById("count");
      if (node) node.textContent = count === null || count === undefined ? "" : `${count.toLocaleString()} ${state.q ? "matching" : "objects"}`;
    }

    draw(rows, () => ({}));
    drawPager(page);
    if (page.count !== null && page.count !== undefined) showCount(page.count);
    else api("count", { type: typeName, q: state.q }).then((answer) => showCount(answer.count), () => showCount(null));

    follow("events", { ...request, since: page.version }, (event) => {
      if (event.error) { errorBox.replaceChildren(el("div", { class: "error" }, textNode(event.error.message))); return; }
      const old = new Map(rows.map((row) => [row.key, row]));
      const fresh = new Set(event.objects.map((row) => row.key));
      const changes = event.changes || { exact: false };
      const inserted = new Set(changes.exact ? changes.inserted : event.objects.map((row) => row.key).filter((key) => !old.has(key)));
      const modified = changes.exact ? changes.modified : {};
      const gone = [...old.keys()].filter((key) => !fresh.has(key));
      const apply = () => {
        rows = event.objects;
        draw(rows, (object) => ({
          inserted: inserted.has(object.key),
          flash: (name) => {
            if (inserted.has(object.key) || !old.has(object.key)) return false;
            const changed = modified[object.key];
            if (changed === null || (changed && changed.includes(name))) return true;
            const before = old.get(object.key);
            return JSON.stringify(before.values[name]) !== JSON.stringify(object.values[name])
              || (name in object.counts && before.counts[name] !== object.counts[name]);
          },
        }));
        drawPager(event);
        showCount(event.count);
      };
      // Deleted rows fade first, then the page is drawn again; rows that only slid to another page just go.
      const deleted = new Set(changes.exact ? changes.deleted : []);
      const leaving = gone.filter((key) => deleted.has(key))
        .map((key) => table.querySelector(`tr[data-key="${CSS.escape(key)}"]`)).filter(Boolean);
      if (leaving.length) { for (const row of leaving) row.classList.add("deleted"); setTimeout(apply, 350); } else apply();
    });
  }

  // ---------- one object ----------

  async function objectView(typeName, key) {
    const object = await api("object", { type: typeName, key });
    const type = typeSchema(typeName);
    const title = el("h1", {}, textNode(`${typeName}(${key})`), el("span", { class: "sub" }, link(`/types/${encodeURIComponent(typeName)}`, `all ${typeName}`)));
    const banner = el("div", { id: "object-banner" });
    const table = el("table", { id: "properties" });
    const backlinks = el("div", { id: "backlinks" });
    main.replaceChildren(title, banner, table, el("h2", {}, "Backlinks"), backlinks);

    function draw(current, changed) {
      const rows = [el("tr", {}, el("th", {}, "Property"), el("th", {}, "Type"), el("th", {}, "Value"))];
      for (const entry of current.properties) {
        const property = type.properties.find((candidate) => candidate.name === entry.name);
        let value;
        if (property.type === "linkingObjects" || (property.objectType && property.collection !== "single" && property.type === "object")) {
          const label = `${entry.count.toLocaleString()} ${property.type === "linkingObjects" ? "backlinks" : "items"}`;
          value = el("span", {}, link(`${objectPath(typeName, key)}/${encodeURIComponent(entry.name)}`, label),
            entry.value && entry.value.length ? el("span", { class: "muted" }, " · ", ...entry.value.slice(0, 5).flatMap((item, index) => [index ? ", " : "", cellValue(item)])) : null);
        } else {
          value = fullValue(entry.value, property);
          if (entry.count !== undefined) value = el("div", {}, el("div", { class: "muted" }, `${entry.count.toLocaleString()} ${property.collection === "map" ? "entries" : "items"}`), value);
        }
        const td = el("td", { class: "value", "data-property": entry.name }, value);
        if (changed && changed(entry.name)) td.classList.add("flash");
        rows.push(el("tr", {}, el("th", {}, textNode(entry.name)), el("td", { class: "mono muted" }, textNode(property.description)), td));
      }
      table.replaceChildren(...rows);
      const list = el("ul", {});
      for (const group of current.backlinks) {
        list.append(el("li", {}, link(`${objectPath(typeName, key)}/${encodeURIComponent(`@links.${group.type}.${group.property}`)}`,
          textNode(`${group.type}.${group.property}`)), ` · ${group.count.toLocaleString()}`));
      }
      backlinks.replaceChildren(current.backlinks.length ? list : el("p", { class: "muted" }, "Nothing links here."));
    }
    draw(object);
    let shown = object;
    follow("object/events", { type: typeName, key, since: object.version }, (event) => {
      if (event.error) { banner.replaceChildren(el("div", { class: "banner" }, textNode(event.error.message))); return; }
      if (!event.object) { banner.replaceChildren(el("div", { class: "banner", id: "deleted" }, `Deleted at version ${event.version}.`)); return; }
      const before = new Map(shown.properties.map((entry) => [entry.name, JSON.stringify(entry)]));
      draw(event.object, (name) => (event.changed === null && before.size === 0) || (event.changed && event.changed.includes(name))
        || before.get(name) !== JSON.stringify(event.object.properties.find((entry) => entry.name === name)));
      shown = event.object;
    });
  }

  // ---------- a list's or backlinks' objects ----------

  async function relatedView(typeName, key, property, parameters) {
    const page = await api("related", { type: typeName, key, property, after: parameters.get("after") });
    const target = typeSchema(page.type);
    const name = property.startsWith("@links.") ? property.slice(7) : property;
    const title = el("h1", {}, link(objectPath(typeName, key), textNode(`${typeName}(${key})`)), textNode(`.${name}`),
      el("span", { class: "sub", id: "count" }, `${page.count.toLocaleString()} ${page.type}`));
    const table = el("table", { id: "objects" });
    const columns = page.columns.map((column) => target.properties.find((candidate) => candidate.name === column));
    table.append(el("tr", {}, el("th", {}, "key"), ...columns.map((column) => el("th", {}, textNode(column.name)))));
    for (const object of page.objects) {
      const tr = el("tr", { "data-key": object.key }, el("td", { class: "cell" }, link(objectPath(page.type, object.key), textNode(object.key))));
      for (const column of columns) {
        const content = column.name in object.counts
          ? link(`${objectPath(page.type, object.key)}/${encodeURIComponent(column.name)}`, `${object.counts[column.name]}`)
          : cellValue(object.values[column.name], column);
        tr.append(el("td", { class: "cell", "data-column": column.name }, content));
      }
      table.append(tr);
    }
    const next = page.next ? link(`${location.pathname}?${new URLSearchParams({ after: page.next })}`, "Next ›") : null;
    main.replaceChildren(title, table, el("div", { class: "pager" }, parameters.get("after") ? el("button", { type: "button", onclick: () => history.back() }, "‹ Back") : null, next));
  }

  // ---------- check ----------

  function checkView() {
    const bar = el("progress", { max: 1, value: 0, id: "check-progress" });
    const status = el("div", { class: "muted", id: "check-status" }, "Verifies every record, index entry, link and backlink, in one snapshot.");
    const problems = el("ul", { class: "problems", id: "check-problems" });
    const start = el("button", { id: "run-check", type: "button" }, "Run check");
    start.addEventListener("click", () => {
      start.disabled = true;
      problems.replaceChildren();
      const source = new EventSource("/api/check");
      liveSource = source;
      source.addEventListener("progress", (event) => {
        const data = JSON.parse(event.data);
        bar.max = Math.max(data.total, 1); bar.value = data.done;
        status.textContent = `${data.database}: ${data.done.toLocaleString()} of ${data.total.toLocaleString()}`;
      });
      source.addEventListener("problem", (event) => problems.append(el("li", {}, textNode(JSON.parse(event.data).message))));
      const finish = (text, ok) => { source.close(); start.disabled = false; status.textContent = text; status.className = ok ? "ok" : "error"; bar.value = bar.max; };
      source.addEventListener("done", (event) => {
        const count = JSON.parse(event.data).problems;
        finish(count === 0 ? "ok: records, indexes, links and backlinks are consistent" : `${count} problem(s) found`, count === 0);
      });
      source.addEventListener("failed", (event) => finish(JSON.parse(event.data).message, false));
    });
    main.replaceChildren(el("h1", {}, "Check"), el("div", { class: "toolbar" }, start, bar), status, problems);
  }

  // ---------- start ----------

  async function start() {
    const controller = new AbortController();
    [schema, info] = await Promise.all([
      fetch("/api/schema", { credentials: "same-origin", signal: controller.signal }).then((response) => response.json()),
      fetch("/api/info", { credentials: "same-origin", signal: controller.signal }).then((response) => response.json()),
    ]);
    document.getElementById("store-path").textContent = info.path;
    document.title = `${info.path.split("/").pop()} · ObjDB Inspector`;
    const list = document.getElementById("type-list");
    for (const type of info.types) {
      list.append(el("li", {}, el("a", { href: `/types/${encodeURIComponent(type.name)}`, "data-route": true, "data-type": type.name },
        el("span", {}, textNode(type.name)), el("span", { class: "count" }, type.count.toLocaleString()))));
    }
    await render();
  }

  start().catch((error) => main.replaceChildren(el("p", { class: "error" }, textNode(String(error.message || error)))));
})();
