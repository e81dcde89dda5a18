// mjscore serve: the table's shared score sheet. Every phone at the table opens the same
// table (?t=ID, a link or the QR code), books the hand on the page, and sees every
// change live (server-sent events; on a reconnect, the sheet is read again by its version).
"use strict";

(function () {
  const $ = (id) => document.getElementById(id);
  const el = (tag, cls, text) => {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  };
  const W = {
    zh: { table: "牌桌记分", new_table: "开一桌", names: "玩家（东 南 西 北）", stake: "每分金额",
      rotate: "换庄", rot_dealer: "庄家胡则连庄", rot_every: "每局换庄", rot_manual: "手动",
      create: "开桌", join_link: "其他手机扫码或打开：", book: "记入此局", undo: "撤销", redo: "恢复",
      edit: "修改", correct: (n) => `改正第 ${n} 局`, cancel: "取消修改",
      penalty: "诈胡罚分", pen_seat: "诈胡者", pen_amount: "每家", book_pen: "记罚分",
      adjust: "调整（合计为零）", book_adj: "记调整", adjust_line: (xs) => `调整：${xs.join(" · ")}`,
      round: "四川一局（事件，每行一件）", book_round: "记入此局", totals: "合计", transfers: "结算",
      settle_none: "无需转账", pays: (a, b, x) => `${a} 付 ${b} ${x}`, export: "导出",
      conflict: "另一台手机先改了记分表：已显示最新的，你的这一手还在上面，请再记一次。",
      pass_deal: "下庄（座位轮转）", leave: "离开此桌", dealer: "庄", n: "#", who: "谁胡", points: "分",
      penalty_line: (s, x) => `${s} 诈胡：付每家 ${x}`, round_line: (w) => `一局：${w.join(" ") || "无人胡"}`,
      self: "自摸", from: (s) => `${s} 放铳`, version: "版本" },
    en: { table: "Table score sheet", new_table: "Start a table", names: "Players (E S W N)",
      stake: "Money per point", rotate: "The deal", rot_dealer: "passes unless the dealer won",
      rot_every: "passes every hand", rot_manual: "set by hand", create: "Start",
      join_link: "Other phones scan or open:", book: "Book this hand", undo: "Undo", redo: "Redo",
      edit: "Edit", correct: (n) => `Correct line ${n}`, cancel: "Cancel the edit",
      penalty: "False win penalty", pen_seat: "Who", pen_amount: "to each", book_pen: "Book penalty",
      adjust: "Adjustment (summing to zero)", book_adj: "Book adjustment",
      adjust_line: (xs) => `adjustment: ${xs.join(" · ")}`,
      round: "A Sichuan round (events, one a line)", book_round: "Book the round",
      totals: "Totals", transfers: "To settle", settle_none: "nothing to pay",
      pays: (a, b, x) => `${a} pays ${b} ${x}`, export: "Export",
      conflict: "Another phone changed the sheet first: here is the new one; your hand is still above, book it again.",
      pass_deal: "Pass the deal", leave: "Leave this table", dealer: "dealer", n: "#", who: "Who won",
      points: "points", penalty_line: (s, x) => `${s} false win: pays ${x} to each`,
      round_line: (w) => `round: ${w.join(" ") || "no winner"}`, self: "self-drawn",
      from: (s) => `discard by ${s}`, version: "version" },
  };
  const w = (k) => W[window.mjscore.lang()][k];
  const SEATS = ["E", "S", "W", "N"];
  const KEY = "mjscore.table";
  let sheet = null, source = null, note = "";
  let editing = null; // the line being corrected: its hand is on the keyboard, "book" replaces it

  async function load(id) {
    const { status, data } = await window.mjscore.api(`/api/tables/${id}`);
    if (status !== 200) { if (status === 404) { localStorage.removeItem(KEY); } sheet = null; render(); return; }
    sheet = data;
    render();
  }

  function follow(id) {
    if (source) source.close();
    if (!window.EventSource) return;
    source = new EventSource(`/api/tables/${id}/events`);
    source.addEventListener("version", (ev) => {
      if (!sheet || Number(ev.data) !== sheet.version) load(id);
    });
  }

  async function open(id) {
    window.mjscoreTable = { id };
    try { localStorage.setItem(KEY, id); } catch (e) { /* not kept */ }
    const url = new URL(location.href);
    url.searchParams.set("t", id);
    history.replaceState(null, "", url.pathname + url.search);
    await load(id);
    if (sheet) {
      const r = window.mjscore.rules();
      const spec = sheet.settings.upload ? null : sheet.settings.rules;
      if (spec && (!r || r.id_spec !== spec)) await window.mjscore.loadRules(spec);
      follow(id);
    }
  }

  async function change(path, body, method) {
    const { status, data } = await window.mjscore.api(`/api/tables/${sheet.id}${path}`,
      { version: sheet.version, ...body }, method);
    note = "";
    if (status === 409) { sheet = data.sheet; note = w("conflict"); render(); return false; }
    if (status !== 200) { note = data.error ? data.error.message : String(status); render(); return false; }
    sheet = data;
    render();
    return true;
  }

  function field(labelText, input) {
    const l = el("label");
    l.append(el("span", null, labelText + " "), input);
    return l;
  }

  function createForm(box) {
    box.append(el("h3", null, w("new_table")));
    const names = el("div", "seat-names");
    const inputs = SEATS.map((s, i) => {
      const inp = el("input");
      inp.id = "name-" + s;
      inp.placeholder = s;
      inp.value = ["", "", "", ""][i];
      inp.setAttribute("aria-label", `${w("names")} ${s}`);
      names.append(inp);
      return inp;
    });
    box.append(el("p", null, w("names")), names);
    const stake = el("input");
    stake.id = "stake";
    stake.value = "1";
    stake.inputMode = "decimal";
    const rot = el("select");
    rot.id = "rotate";
    for (const r of ["dealer", "every", "manual"]) rot.append(new Option(w("rot_" + r), r));
    box.append(field(w("stake"), stake), field(w("rotate"), rot));
    const go = el("button", null, w("create"));
    go.type = "button";
    go.id = "create-table";
    go.addEventListener("click", async () => {
      const r = window.mjscore.rules();
      const seating = {};
      SEATS.forEach((s, i) => { if (inputs[i].value.trim()) seating[s] = inputs[i].value.trim(); });
      const body = { seating, stake: stake.value.trim() || "1", rotate: rot.value };
      if (r.is_upload) body.upload = r.upload; else body.rules = r.id_spec || r.id;
      const { status, data } = await window.mjscore.api("/api/tables", body);
      if (status !== 201) { note = data.error ? data.error.message : String(status); render(); return; }
      await open(data.id);
    });
    box.append(go);
  }

  function entryText(e) {
    if (e.kind === "penalty") return w("penalty_line")(`${e.summary.seat} ${e.seating[e.summary.seat]}`, e.summary.amount);
    if (e.kind === "adjust") return w("adjust_line")(Object.entries(e.summary.payments).map(([x, v]) => `${x} ${e.seating[x] || ""} ${v > 0 ? "+" + v : v}`));
    if (e.kind === "round") return w("round_line")(e.summary.winners.map((s) => `${s} ${e.seating[s]}`));
    const m = e.summary || {};
    const lang = window.mjscore.lang();
    const how = m.self_draw ? w("self") : (m.from ? w("from")(`${m.from} ${e.seating[m.from] || ""}`) : "");
    const pats = (m.patterns || []).map((p) => (lang === "zh" ? p.name : (p.name_en || p.name)) + " " + p.value + (p.count > 1 ? "×" + p.count : "")).join(" · ");
    // the unit in the page's language (the line was booked in the booking phone's)
    const r = window.mjscore.rules(), named = r && r.labels && r.labels.score;
    const unit = (named && (r.id_spec || r.id) === sheet.settings.rules && named[lang]) || m.unit || "";
    return `${m.winner} ${e.seating[m.winner] || ""} · ${how} · ${m.score} ${unit} · ${pats} · ${m.hand || ""}`;
  }

  function sheetView(box) {
    const s = sheet.settings;
    const link = `${location.origin}/?t=${sheet.id}`;
    const join = el("div", "join");
    const img = el("img", "qr");
    img.src = `/api/tables/${sheet.id}/qr.svg`;
    img.alt = link;
    const a = el("a", null, link);
    a.href = link;
    a.id = "table-link";
    join.append(el("p", "note", w("join_link")), a, el("br"), img);
    box.append(join);
    const seats = el("p", "seating");
    seats.id = "seating";
    seats.textContent = SEATS.filter((x) => s.seating[x]).map((x) => `${x} ${s.seating[x]}${x === "E" ? " (" + w("dealer") + ")" : ""}`).join(" · ");
    box.append(seats);
    const actions = el("div", "tools");
    if (editing && !sheet.entries.some((e) => e.n === editing && e.kind === "hand")) editing = null;
    const book = el("button", null, editing ? w("correct")(editing) : w("book"));
    book.type = "button";
    book.id = "book";
    book.addEventListener("click", async () => {
      const body = { hand: window.mjscore.notation(), flags: window.mjscore.flags(), lang: window.mjscore.lang() };
      const ok = editing ? await change(`/hands/${editing}`, body, "PUT") : await change("/hands", body);
      if (ok) { editing = null; window.mjscore.clear(); render(); }
    });
    if (editing) {
      const cancel = el("button", null, w("cancel"));
      cancel.type = "button";
      cancel.id = "cancel-edit";
      cancel.addEventListener("click", () => { editing = null; window.mjscore.clear(); render(); });
      actions.append(cancel);
    }
    const pass = el("button", null, w("pass_deal"));
    pass.type = "button";
    pass.id = "pass-deal";
    pass.addEventListener("click", () => {
      const seated = SEATS.filter((x) => s.seating[x]);
      const next = {};
      seated.forEach((x, i) => { next[x] = s.seating[seated[(i + 1) % seated.length]]; });
      change("/settings", { seating: next });
    });
    const leave = el("button", null, w("leave"));
    leave.type = "button";
    leave.addEventListener("click", () => { localStorage.removeItem(KEY); if (source) source.close(); sheet = null; window.mjscoreTable = null; history.replaceState(null, "", location.pathname); render(); });
    actions.append(book, pass, leave);
    box.append(actions);
    if (note) { const n = el("p", "error", note); n.id = "sheet-note"; n.setAttribute("role", "alert"); box.append(n); }
    // the lines, in order, with each player's points
    const names = sheet.totals.players.map((p) => p.name);
    const allNames = [...new Set([...names, ...SEATS.map((x) => s.seating[x]).filter(Boolean)])];
    const tbl = el("table", "sheet-table");
    tbl.id = "sheet-lines";
    const head = el("tr");
    for (const h of [w("n"), w("who"), ...allNames, ""]) head.append(el("th", null, h));
    tbl.append(head);
    for (const e of sheet.entries) {
      const tr = el("tr", e.deleted ? "undone" : null);
      tr.dataset.n = e.n;
      tr.append(el("td", null, e.n), el("td", "what", entryText(e)));
      const pay = e.record.payments;
      for (const name of allNames) {
        const seat = SEATS.find((x) => e.seating[x] === name);
        const v = seat && pay[seat] !== undefined ? pay[seat] : 0;
        const td = el("td", "num", v > 0 ? "+" + v : String(v));
        tr.append(td);
      }
      const b = el("button", null, e.deleted ? w("redo") : w("undo"));
      b.type = "button";
      b.className = "undo-line";
      b.addEventListener("click", () => change(`/undo/${e.n}`, { undone: !e.deleted }));
      const td = el("td");
      td.append(b);
      if (e.kind === "hand" && !e.deleted && e.input) {
        // a correction: the line's hand and flags back on the keyboard, booked again in its place
        const ed = el("button", null, w("edit"));
        ed.type = "button";
        ed.className = "edit-line";
        ed.addEventListener("click", () => { editing = e.n; window.mjscore.setHand(e.input.hand, e.input.flags); render(); });
        td.append(ed);
      }
      tr.append(td);
      tbl.append(tr);
    }
    const tot = el("tr", "totals-row");
    tot.append(el("th", null, ""), el("th", null, w("totals")));
    for (const name of allNames) {
      const p = sheet.totals.players.find((x) => x.name === name);
      const v = p ? Number(p.net) : 0;
      const td = el("td", "num", v > 0 ? "+" + p.net : String(p ? p.net : 0));
      td.dataset.player = name;
      tot.append(td);
    }
    tot.append(el("td"));
    tbl.append(tot);
    const scroll = el("div", "sheet-scroll");
    scroll.append(tbl);
    box.append(scroll);
    const tr = el("div", "transfers");
    tr.id = "transfers";
    tr.append(el("h3", null, w("transfers")));
    const ul = el("ul");
    for (const x of sheet.totals.transfers) ul.append(el("li", null, w("pays")(x.from, x.to, x.amount)));
    if (!sheet.totals.transfers.length) ul.append(el("li", null, w("settle_none")));
    tr.append(ul);
    box.append(tr);
    // a false win
    const pen = el("div", "tools");
    const seat = el("select");
    seat.id = "pen-seat";
    for (const x of SEATS.filter((y) => s.seating[y])) seat.append(new Option(`${x} ${s.seating[x]}`, x));
    const amount = el("input");
    amount.id = "pen-amount";
    amount.inputMode = "numeric";
    amount.size = 4;
    amount.placeholder = (s.rules === "mcr" || s.rules === "mcr-house") ? "10" : "";
    const pb = el("button", null, w("book_pen"));
    pb.type = "button";
    pb.id = "book-penalty";
    pb.addEventListener("click", () => change("/penalties", { seat: seat.value, amount: amount.value.trim() ? Number(amount.value) : null }));
    pen.append(el("strong", null, w("penalty")), field(w("pen_seat"), seat), field(w("pen_amount"), amount), pb);
    box.append(pen);
    // an adjustment: points moved between players, summing to zero
    const adj = el("div", "tools");
    adj.id = "adjust";
    const adjInputs = SEATS.filter((y) => s.seating[y]).map((x) => {
      const inp = el("input");
      inp.id = "adj-" + x;
      inp.inputMode = "numeric";
      inp.size = 4;
      inp.placeholder = "0";
      return [x, inp];
    });
    const ab = el("button", null, w("book_adj"));
    ab.type = "button";
    ab.id = "book-adjust";
    ab.addEventListener("click", async () => {
      const amounts = {};
      for (const [x, inp] of adjInputs) if (inp.value.trim()) amounts[x] = Number(inp.value.trim());
      if (await change("/adjustments", { amounts })) for (const [, inp] of adjInputs) inp.value = "";
    });
    adj.append(el("strong", null, w("adjust")), ...adjInputs.map(([x, inp]) => field(`${x} ${s.seating[x]}`, inp)), ab);
    box.append(adj);
    if (s.rules === "sichuan" || s.rules === "sichuan-xueliu") {
      const ta = el("textarea");
      ta.id = "round-text";
      ta.rows = 5;
      const rb = el("button", null, w("book_round"));
      rb.type = "button";
      rb.id = "book-round";
      rb.addEventListener("click", async () => { if (await change("/rounds", { text: ta.value, lang: window.mjscore.lang() })) ta.value = ""; });
      const l = el("label", "block");
      l.append(el("span", null, w("round")), ta);
      box.append(l, rb);
    }
    const ex = el("p", "note");
    ex.append(w("export") + ": ");
    for (const f of ["txt", "json", "csv"]) {
      const x = el("a", null, f);
      x.href = `/api/tables/${sheet.id}/export.${f}`;
      x.download = `mjscore-${sheet.id}.${f}`;
      ex.append(x, " ");
    }
    ex.append(`· ${w("version")} ${sheet.version}`);
    box.append(ex);
  }

  function render() {
    const box = $("sheet");
    if (!box) return;
    box.replaceChildren();
    $("table-h").textContent = w("table");
    if (!sheet) {
      createForm(box);
      if (note) box.append(el("p", "error", note));
      return;
    }
    box.dataset.version = String(sheet.version);
    sheetView(box);
  }

  async function start() {
    const id = new URLSearchParams(location.search).get("t") || localStorage.getItem(KEY);
    if (id && /^[a-z0-9]{6}$/.test(id)) await open(id); else render();
  }

  window.mjscoreSheet = { start, render };
})();
