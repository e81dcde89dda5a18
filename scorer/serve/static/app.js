// mjscore serve: the table's page. Plain JavaScript, no build step, nothing fetched
// from outside; every answer comes from this server's JSON API (/api/...), which gives
// the records of `mjscore score --json` and `mjscore waits --json`.
"use strict";

(function () {
  const $ = (id) => document.getElementById(id);
  const el = (tag, cls, text) => {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  };

  // ---------------------------------------------------------------- words
  const T = {
    zh: {
      ruleset: "规则", glyphs: "Unicode 牌", hand: "手牌", notation: "记法",
      notation_help: "点下面的牌加入，点手中的牌删除；最后一张是和牌。",
      meld: "副露", offer: "来自", concealed_kong: "暗杠 / 无", offer1: "1 上家",
      offer2: "2 对家", offer3: "3 下家", meld_done: "完成副露", win_mode: "选和牌",
      undo: "退格", clear: "清空", context: "和牌情况", result: "结果",
      dispute: "对比（争议）", vs_on: "与另一规则对比", vs_rules: "B 规则",
      vs_option: "B 选项 KEY=VALUE", house: "自定规则文件",
      house_help: "上传或粘贴 YAML 规则文件（如 extends: hangzhou），与 --rules 文件相同的限制。",
      house_name: "文件名", house_file: "选择文件", house_text: "文本", house_load: "载入",
      footer: "mjscore — 在这台机器上计算，不连外网。",
      score: "得分", patterns: "番种", reading: "牌型", wildcards: "财神", chain: "计算",
      payment: "支付", seat: "座位", role: "角色", points: "分", winner: "和牌",
      pays: "付", dealer: "庄", none: "无", waits: "听牌", not_ready: "未听牌",
      any_tile: "任意牌", best_get: "最多得", how_self: "自摸", how_discard: "点炮",
      tile_count: (n, want) => `${n} 张（和牌需 ${want} 张，听牌 ${want - 1} 张）`,
      options: "选项", default: "默认", yes: "是", no: "否", differences: "不同之处",
      same: "相同", side_a: "A", side_b: "B", uploaded: "（上传）", loaded: "已载入",
      error: "错误", busy: "计算中…", seats_none: "—", wild_mark: "* = 财神",
      remove_tile: "删除", meld_open: "副露中", flag_multi: "用逗号分隔",
      ignored: "此方不用的旗标", row_result: "结果", row_decomposition: "牌型",
      row_wildcards: "财神", row_patterns: "番种", row_chain: "计算", row_score: "得分",
      row_payment: "支付", row_payments: "各家得失", stand_ins: "替身", itself: "（本身）", why: "为何",
      offline: "连不上服务器：手牌已存在本机，恢复后会自动重试。", retry: "重试", busy: "服务器正忙，请稍后再试。", replaced: "被替",
      chi: "吃", peng: "碰", gang: "杠", angang: "暗杠", pick_tile: "再点一张牌",
      won_by: (seat, dealer, how) => `${seat} 胡（${dealer ? "庄家" : "闲家"}），${how}`,
      how_from: (s) => `${s} 放铳`, no_glyphs: "本机字体没有麻将牌字符",
    },
    en: {
      ruleset: "Rules", glyphs: "Unicode tiles", hand: "Hand", notation: "Notation",
      notation_help: "Tap a tile below to add it, a tile in the hand to remove it; the last tile is the winning tile.",
      meld: "Meld", offer: "From", concealed_kong: "concealed kong / none", offer1: "1 left (上家)",
      offer2: "2 across (对家)", offer3: "3 right (下家)", meld_done: "Close meld",
      win_mode: "Pick winning tile", undo: "Backspace", clear: "Clear", context: "The win",
      result: "Result", dispute: "Compare (dispute)", vs_on: "Compare with another ruleset",
      vs_rules: "B rules", vs_option: "B option KEY=VALUE", house: "House rules file",
      house_help: "Upload or paste a YAML ruleset (e.g. extends: hangzhou); the same limits as --rules FILE.",
      house_name: "File name", house_file: "Choose file", house_text: "Text", house_load: "Load",
      footer: "mjscore — computed on this machine, nothing fetched from outside.",
      score: "Score", patterns: "Patterns", reading: "Reading", wildcards: "Wildcards",
      chain: "Chain", payment: "Payment", seat: "Seat", role: "Role", points: "Points",
      winner: "winner", pays: "pays", dealer: "dealer", none: "none", waits: "Waits",
      not_ready: "not ready", any_tile: "any tile", best_get: "best", how_self: "self-drawn",
      how_discard: "discard",
      tile_count: (n, want) => `${n} tiles (a win needs ${want}, waits ${want - 1})`,
      options: "Options", default: "default", yes: "yes", no: "no", differences: "Differences",
      same: "same", side_a: "A", side_b: "B", uploaded: " (uploaded)", loaded: "loaded",
      error: "Error", busy: "scoring…", seats_none: "—", wild_mark: "* = wildcard",
      remove_tile: "remove", meld_open: "meld open", flag_multi: "comma-separated",
      ignored: "flags this side has no use for", row_result: "result",
      row_decomposition: "reading", row_wildcards: "wildcards", row_patterns: "patterns",
      row_chain: "chain", row_score: "score", row_payment: "payment", row_payments: "per seat",
      stand_ins: "Stand-ins", itself: " (itself)", why: "Why",
      offline: "The server cannot be reached: the hand is kept on this phone and sent again when it is back.",
      retry: "Retry", busy: "The server is busy; try again in a moment.", replaced: "Replaced",
      chi: "Chow", peng: "Pung", gang: "Kong", angang: "Concealed kong", pick_tile: "now tap a tile",
      won_by: (seat, dealer, how) => `${seat} wins (${dealer ? "dealer" : "not dealer"}), ${how}`,
      how_from: (s) => `discard by ${s}`, no_glyphs: "this device's fonts have no mahjong tiles",
    },
  };
  let lang = "zh";
  const t = (k) => (T[lang][k] !== undefined ? T[lang][k] : k);

  // ---------------------------------------------------------------- tiles
  const SUITS = { m: ["万", "characters"], p: ["筒", "dots"], s: ["条", "bamboo"] };
  const SUIT_EN = { m: "crak", p: "dot", s: "bam" };
  const HONOR_EN = { E: "E", S: "S", W: "W", N: "N", C: "Red", F: "Grn", P: "Wht" };
  const NUM_ZH = ["", "一", "二", "三", "四", "五", "六", "七", "八", "九"];
  const HONORS = { E: ["东", "East"], S: ["南", "South"], W: ["西", "West"], N: ["北", "North"],
                   C: ["中", "Red"], F: ["发", "Green"], P: ["白", "White"] };
  const HONOR_ORDER = "ESWNCFP";
  const GLYPH_BASE = { m: 0x1F007, p: 0x1F019, s: 0x1F010 };
  const GLYPH_HONOR = { E: 0x1F000, S: 0x1F001, W: 0x1F002, N: 0x1F003, C: 0x1F004,
                        F: 0x1F005, P: 0x1F006 };
  const ALL_TILES = [];
  for (const s of "mps") for (let n = 1; n <= 9; n++) ALL_TILES.push(n + s);
  for (const h of HONOR_ORDER) ALL_TILES.push(h);

  const tileName = (tl) => {
    if (HONORS[tl]) return lang === "zh" ? HONORS[tl][0] : HONORS[tl][1];
    const n = +tl[0], s = tl[1];
    return lang === "zh" ? NUM_ZH[n] + SUITS[s][0] : `${n} ${SUITS[s][1]}`;
  };
  const order = (tl) => HONORS[tl] ? 27 + HONOR_ORDER.indexOf(tl) : "mps".indexOf(tl[1]) * 9 + (+tl[0]) - 1;

  function tileFace(tl, opts) {
    // a tile drawn by the page: number and suit character, or the honor's character
    const o = opts || {};
    const b = el(o.tag || "span", "tile");
    b.dataset.tile = tl;
    if ($("glyphs").checked) {
      const cp = HONORS[tl] ? GLYPH_HONOR[tl] : GLYPH_BASE[tl[1]] + (+tl[0]) - 1;
      b.classList.add("glyph");
      b.append(el("span", "g", String.fromCodePoint(cp)));
    } else if (HONORS[tl]) {
      b.classList.add("honor", "h" + tl);
      b.append(el("span", "big", lang === "zh" ? HONORS[tl][0] : HONOR_EN[tl]));
    } else {
      // the key's face in the page's language: 三万, or 3 over "crak"
      b.classList.add("suit-" + tl[1]);
      b.append(el("span", "num", lang === "zh" ? NUM_ZH[+tl[0]] : tl[0]),
               el("span", "suit", lang === "zh" ? SUITS[tl[1]][0] : SUIT_EN[tl[1]]));
    }
    if (o.wild) b.classList.add("wild");
    if (o.stand) b.classList.add("stand-in");
    if (o.win) b.classList.add("win");
    return b;
  }

  // ---------------------------------------------------------------- the hand
  // melds: [{tiles: [...], offer: "" | "1".."3", as: ""}]; concealed: tiles in order
  // entered, the winning tile last (state.win marks which when picked by hand).
  const state = { melds: [], concealed: [], open: null, winMode: false, text: null };

  function groupText(tiles) {
    // 1m 2m 3m 4p P -> 123m4pP: digits share one suit letter
    let out = "", run = "", suit = "";
    for (const tl of tiles) {
      if (HONORS[tl]) { out += run + (run ? suit : "") + tl; run = ""; suit = ""; continue; }
      if (tl[1] !== suit && run) { out += run + suit; run = ""; }
      suit = tl[1]; run += tl[0];
    }
    return out + (run ? run + suit : "");
  }

  function notation() {
    if (state.text !== null) return state.text;
    let out = "";
    for (const m of state.melds) {
      out += "[" + groupText(m.tiles) + (m.as ? "=" + m.as : "") + (m.offer ? "," + m.offer : "") + "]";
    }
    const c = state.concealed;
    if (!c.length) return out;
    const rest = c.slice(0, -1).slice().sort((a, b) => order(a) - order(b));
    return out + groupText(rest) + groupText([c[c.length - 1]]);
  }

  // Read notation as the page writes it (and the common spellings); null if it cannot:
  // the server then reads it and names the position of the mistake.
  function parseNotation(text) {
    const melds = [], concealed = [];
    let i = 0;
    const s = normalText(text);
    const readTiles = (src) => {
      const out = [];
      let digits = "";
      for (const ch of src) {
        if (/[1-9]/.test(ch)) { digits += ch; continue; }
        let suit = { m: "m", w: "m", p: "p", b: "p", s: "s", t: "s" }[ch];
        if (suit && digits) { for (const d of digits) out.push(d + suit); digits = ""; continue; }
        if (ch === "z" && digits) {
          for (const d of digits) { if (d > "7") return null; out.push(HONOR_ORDER[+d - 1]); }
          digits = ""; continue;
        }
        if (HONOR_ORDER.includes(ch) && !digits) { out.push(ch); continue; }
        return null;
      }
      return digits ? null : out;
    };
    while (i < s.length && s[i] === "[") {
      const j = s.indexOf("]", i);
      if (j < 0) return null;
      let body = s.slice(i + 1, j), offer = "", as = "";
      const comma = body.lastIndexOf(",");
      if (comma >= 0) { offer = body.slice(comma + 1); body = body.slice(0, comma); if (!/^[0-3]?$/.test(offer)) return null; }
      const eq = body.indexOf("=");
      if (eq >= 0) { as = body.slice(eq + 1); body = body.slice(0, eq); }
      const tiles = readTiles(body);
      if (!tiles || !tiles.length) return null;
      melds.push({ tiles, offer, as });
      i = j + 1;
    }
    const rest = readTiles(s.slice(i));
    if (!rest) return null;
    concealed.push(...rest);
    return { melds, concealed };
  }

  // full-width digits and letters, 万筒饼条索 and 东南西北中发白 read as the notation's letters
  function normalText(text) {
    const map = { "万": "m", "萬": "m", "筒": "p", "饼": "p", "餅": "p", "条": "s", "條": "s", "索": "s",
                  "东": "E", "東": "E", "南": "S", "西": "W", "北": "N", "中": "C", "发": "F", "發": "F", "白": "P",
                  "，": ",", "［": "[", "］": "]", "＝": "=" };
    return text.normalize("NFKC").replace(/\s+/g, "").replace(/./gu, (c) => map[c] || c);
  }

  function tileCount() {
    // a kong counts as three tiles toward the hand's size
    return state.melds.reduce((n, m) => n + Math.min(3, m.tiles.length), 0) + state.concealed.length;
  }

  function addTile(tl) {
    state.text = null;
    if (state.open) state.open.tiles.push(tl);
    else state.concealed.push(tl);
    changed();
  }

  function renderHand() {
    const melds = $("melds"), hand = $("hand");
    melds.replaceChildren();
    hand.replaceChildren();
    state.melds.forEach((m, mi) => {
      const g = el("span", "meld" + (m === state.open ? " open" : ""));
      g.setAttribute("role", "group");
      g.setAttribute("aria-label", `${t("meld")} ${mi + 1}${m.offer ? " ← " + t("offer" + m.offer) : ""}`);
      m.tiles.forEach((tl, ti) => {
        const b = tileFace(tl, { tag: "button" });
        b.type = "button";
        b.setAttribute("aria-label", `${t("remove_tile")} ${tileName(tl)} (${t("meld")} ${mi + 1})`);
        b.addEventListener("click", () => {
          state.text = null;
          m.tiles.splice(ti, 1);
          if (!m.tiles.length) { state.melds.splice(mi, 1); if (state.open === m) state.open = null; }
          changed();
        });
        g.append(b);
      });
      if (m.offer) g.append(el("span", "offer", "←" + m.offer));
      melds.append(g);
    });
    const c = state.concealed;
    const sorted = c.slice(0, -1).map((tl, i) => [tl, i]).sort((a, b) => order(a[0]) - order(b[0]));
    if (c.length) sorted.push([c[c.length - 1], c.length - 1]);
    sorted.forEach(([tl, idx], k) => {
      const isWin = k === sorted.length - 1;
      const b = tileFace(tl, { tag: "button", win: isWin });
      b.type = "button";
      b.setAttribute("role", "listitem");
      b.setAttribute("aria-label", state.winMode ? `${t("win_mode")}: ${tileName(tl)}` :
        `${t("remove_tile")} ${tileName(tl)}${isWin ? " (" + t("winner") + ")" : ""}`);
      b.addEventListener("click", () => {
        state.text = null;
        const [taken] = c.splice(idx, 1);
        if (state.winMode) { c.push(taken); state.winMode = false; }
        changed();
      });
      hand.append(b);
    });
    $("count").textContent = t("tile_count")(tileCount(), rules ? rules.hand_size : 14);
    greyKeys();
    $("meld").setAttribute("aria-pressed", String(!!state.open));
    $("win-mode").setAttribute("aria-pressed", String(state.winMode));
  }

  function usedCounts() {
    const n = {};
    for (const m of state.melds) for (const tl of m.tiles) n[tl] = (n[tl] || 0) + 1;
    for (const tl of state.concealed) n[tl] = (n[tl] || 0) + 1;
    return n;
  }

  function greyKeys() {
    // a tile whose four copies are all in the hand cannot be tapped again
    const n = usedCounts();
    for (const b of document.querySelectorAll("#keyboard button[data-tile]")) {
      const out = (n[b.dataset.tile] || 0) >= 4;
      b.disabled = out;
      b.classList.toggle("used-up", out);
    }
  }

  function renderKeyboard() {
    const kb = $("keyboard");
    kb.replaceChildren();
    const rows = rules && rules.honors === false ? ["m", "p", "s"] : ["m", "p", "s", "z"];
    for (const row of rows) {
      const r = el("div", "krow" + (row === "z" ? " honors" : ""));
      for (const tl of ALL_TILES.filter((x) => (row === "z" ? HONORS[x] : x[1] === row && !HONORS[x]))) {
        const b = tileFace(tl, { tag: "button" });
        b.type = "button";
        b.setAttribute("aria-label", tileName(tl));
        b.title = tileName(tl);
        b.addEventListener("click", () => tapKey(tl));
        r.append(b);
      }
      kb.append(r);
    }
    greyKeys();
  }

  // one-tap melds: 吃/碰/杠/暗杠, then the tile (吃: its lowest tile, claimed from 上家)
  let meldMode = null;
  function tapKey(tl) {
    if (!meldMode) { addTile(tl); return; }
    const mode = meldMode;
    meldMode = null;
    renderMeldButtons();
    state.text = null;
    const offer = $("offer").value || "1";
    if (mode === "chi") {
      if (HONORS[tl] || +tl[0] > 7) { changed(); return; }
      const s = tl[1], n = +tl[0];
      state.melds.push({ tiles: [n + s, (n + 1) + s, (n + 2) + s], offer: "1", as: "" });
    } else if (mode === "peng") {
      state.melds.push({ tiles: [tl, tl, tl], offer, as: "" });
    } else if (mode === "gang") {
      state.melds.push({ tiles: [tl, tl, tl, tl], offer, as: "" });
    } else {
      state.melds.push({ tiles: [tl, tl, tl, tl], offer: "", as: "" });
    }
    changed();
  }

  function renderMeldButtons() {
    for (const m of ["chi", "peng", "gang", "angang"]) {
      const b = $("m-" + m);
      if (!b) continue;
      b.setAttribute("aria-pressed", String(meldMode === m));
      b.textContent = t(m);
      if (m === "chi") b.hidden = !!(rules && rules.chows === false);
    }
    $("meld-hint").textContent = meldMode ? t("pick_tile") : "";
  }

  // ---------------------------------------------------------------- the context
  let rulesList = [], rules = null, optionsOpen = false;
  const house = {}; // uploaded files: name -> text
  const SEATS = ["E", "S", "W", "N"];

  function flagControl(f) {
    const wrap = el("div", "flag");
    const id = "f-" + f.field;
    const name = lang === "zh" ? f.name_zh : f.name_en;
    let input;
    if (f.type === "bool") {
      input = el("input");
      input.type = "checkbox";
      wrap.classList.add("switch");
      const lab = el("label");
      lab.htmlFor = id;
      lab.append(input, el("span", null, name), el("code", null, f.flag));
      wrap.append(lab);
    } else {
      if (["seat", "round", "discarder"].includes(f.field)) {
        input = el("select");
        if (f.field === "discarder") input.append(new Option(t("seats_none"), ""));
        for (const s of SEATS) input.append(new Option(`${s} ${HONORS[s][lang === "zh" ? 0 : 1]}`, s));
        if (f.default) input.value = f.default;
      } else if (f.type === "int") {
        input = el("input");
        input.type = "number";
        input.inputMode = "numeric";
        if (f.min !== null) input.min = f.min;
        if (f.max !== null) input.max = f.max;
        input.placeholder = f.default !== null && f.default !== undefined ? String(f.default) : "";
      } else {
        input = el("input");
        input.type = "text";
        input.spellcheck = false;
        input.autocomplete = "off";
        input.placeholder = f.multiple ? t("flag_multi") : (f.field === "wild" ? "3m" : "");
      }
      const lab = el("label");
      lab.htmlFor = id;
      lab.append(el("span", null, name), el("code", null, f.flag));
      wrap.append(lab, input);
    }
    input.id = id;
    input.dataset.flag = f.flag;
    input.dataset.field = f.field;
    input.title = (lang === "zh" && f.help_zh) || f.help;
    input.addEventListener("change", changed);
    input.addEventListener("input", changed);
    return wrap;
  }

  function optionControl(o) {
    const wrap = el("div", "flag");
    const id = "o-" + o.name;
    let input;
    if (o.values) {
      input = el("select");
      for (const v of o.values) {
        const shown = v === null ? "none" : v === true ? "true" : v === false ? "false" : String(v);
        const opt = new Option(shown + (v === o.default ? ` (${t("default")})` : ""), shown);
        input.append(opt);
      }
      const d = o.default === null ? "none" : String(o.default);
      input.value = d;
      input.dataset.default = d;
    } else {
      input = el("input");
      input.type = "number";
      if (o.min !== null) input.min = o.min;
      if (o.max !== null) input.max = o.max;
      input.placeholder = String(o.default);
      input.dataset.default = "";
    }
    input.id = id;
    input.dataset.option = o.name;
    input.title = o.description || o.name;
    const lab = el("label");
    lab.htmlFor = id;
    lab.append(el("span", null, o.description || o.name), el("code", null, o.name));
    wrap.append(lab, input);
    input.addEventListener("change", changed);
    return wrap;
  }

  function renderContext() {
    const flags = $("flags"), opts = $("options");
    const keep = currentFlagValues();
    flags.replaceChildren();
    opts.replaceChildren();
    if (!rules) return;
    // only what the ruleset uses: without honors there is no prevailing wind to set
    for (const f of rules.flags) if (!(f.field === "round" && rules.honors === false)) flags.append(flagControl(f));
    if (rules.options.length) {
      // the house options are set once per evening: folded away, so the win's flags stay in reach
      const box = el("details", "opts");
      box.open = optionsOpen;
      box.addEventListener("toggle", () => { optionsOpen = box.open; });
      const grid = el("div", "flags");
      for (const o of rules.options) grid.append(optionControl(o));
      box.append(el("summary", null, `${t("options")} (--option)`), grid);
      opts.append(box);
    }
    for (const [field, v] of Object.entries(keep)) {
      const input = $("f-" + field);
      if (!input) continue;
      if (input.type === "checkbox") input.checked = v; else input.value = v;
    }
  }

  function currentFlagValues() {
    const out = {};
    for (const input of document.querySelectorAll("#flags [data-field]")) {
      out[input.dataset.field] = input.type === "checkbox" ? input.checked : input.value;
    }
    return out;
  }

  function flagArgs() {
    // the context as command-line flags, exactly as `mjscore score` takes them
    const args = ["--rules", rules.id_spec || rules.id];
    for (const input of document.querySelectorAll("#flags [data-flag]")) {
      const flag = input.dataset.flag;
      if (input.type === "checkbox") { if (input.checked) args.push(flag); continue; }
      const v = input.value.trim();
      const row = rules.flags.find((f) => f.flag === flag);
      if (!v || (row && row.default !== null && String(row.default) === v && flag !== "--from")) continue;
      if (row && row.multiple) { for (const part of v.split(/[,\s]+/)) if (part) args.push(flag, part); }
      else args.push(flag, v);
    }
    for (const input of document.querySelectorAll("#options [data-option]")) {
      const v = input.value.trim();
      if (v && v !== input.dataset.default) args.push("--option", `${input.dataset.option}=${v}`);
    }
    args.push("--lang", lang);
    return args;
  }

  // ---------------------------------------------------------------- talking to the server
  // every answer, or status 0 and an "offline" error when the server cannot be reached (the
  // page says so, keeps the hand, and tries again when asked or when the wifi is back)
  // the server answers in the page's language, and takes turns by device: a random id
  // kept on the phone (its address alone may be shared, behind a router or with a server)
  function device() {
    let id = null;
    try { id = localStorage.getItem("mjscore.device"); } catch (e) { /* not kept */ }
    if (!id || !/^[A-Za-z0-9_-]{8,64}$/.test(id)) {
      const bytes = new Uint8Array(12);
      crypto.getRandomValues(bytes);
      id = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
      try { localStorage.setItem("mjscore.device", id); } catch (e) { /* not kept */ }
    }
    return id;
  }

  async function api(path, body, method) {
    let res;
    const headers = { "Accept-Language": lang, "X-Mjscore-Device": device() };
    try {
      res = await fetch(path, body === undefined && !method ? { headers } : {
        method: method || "POST", headers: { ...headers, "Content-Type": "application/json" },
        body: JSON.stringify(body),
      });
    } catch (e) {
      setOffline(true);
      return { status: 0, data: { error: { kind: "offline", message: t("offline") } } };
    }
    setOffline(false);
    let data;
    try { data = await res.json(); } catch (e) { data = { error: { kind: "http", message: t("busy") } }; }
    // refused at the door, before the server knew the page's language
    if (data && data.error && data.error.code === "serve.connections") data.error.message = t("busy");
    return { status: res.status, data };
  }

  function setOffline(off) {
    const bar = $("offline");
    bar.hidden = !off;
    if (off) $("offline-text").textContent = t("offline");
  }

  function filesFor(...specs) {
    const out = {};
    for (const s of specs) if (s && house[s] !== undefined) out[s] = house[s];
    return out;
  }

  let seq = 0, timer = null;
  function changed() {
    if (state.text === null) $("notation").value = notation();
    renderHand();
    clearTimeout(timer);
    timer = setTimeout(update, 120);
  }

  async function update() {
    if (!rules) return;
    const my = ++seq;
    const hand = notation();
    const flags = flagArgs();
    const result = $("result");
    if (!hand) { result.replaceChildren(); $("dispute").replaceChildren(); summaryView(null); return; }
    result.classList.add("busy");
    save();
    // typed or tapped alike: a hand one tile short shows its waits
    const short = tileCount() === rules.hand_size - 1;
    const body = { hand, flags, files: filesFor(rules.id_spec) };
    if (window.mjscoreTable && window.mjscoreTable.id && !Object.keys(body.files).length && rules.is_upload) body.table = window.mjscoreTable.id;
    const { status, data } = await api(short ? "/api/waits" : "/api/score", body);
    if (my !== seq) return; // a newer hand is on its way
    result.classList.remove("busy");
    if (status === 0) { result.replaceChildren(errorView(data.error)); return; }
    // the answer says the win was self-drawn (a ruleset whose wins are self-drawn unless
    // said otherwise): the box says so too
    const sd = $("f-self_draw");
    if (!short && data.self_draw === true && sd && !sd.checked) sd.checked = true;
    result.dataset.status = String(status);
    // the notation is marked wrong only while the server names a place in it
    if (!(data.error && data.error.position)) $("notation").removeAttribute("aria-invalid");
    result.replaceChildren(short && !data.error ? waitsView(data) : resultView(data));
    summaryView(short ? null : data);
    await updateDispute(my, hand, flags);
  }

  // ---------------------------------------------------------------- showing a result
  function errorView(err) {
    const box = el("div", "error");
    box.setAttribute("role", "alert");
    box.append(el("strong", null, t("error") + ": "), el("span", "msg", err.message));
    if (err.position) {
      const inp = $("notation");
      box.dataset.position = err.position;
      inp.setAttribute("aria-invalid", "true");
    }
    return box;
  }

  function readingView(best) {
    // the reading as the report prints it: wildcards '*' and stand-ins '~' where they sit,
    // '←' after the winning tile's group (best.reading; the bare decomposition before it)
    const p = el("p", "reading");
    const groups = best.reading || best.decomposition || [];
    groups.forEach((g, i) => {
      let cls = "group";
      if (g.includes("*")) cls += " has-wild";
      if (g.includes("~")) cls += " has-stand-in";
      if (i === best.win_group || g.endsWith("←")) cls += " win";
      p.append(el("span", cls, g), " ");
    });
    return p;
  }

  function patternName(h) {
    // a tier's name where the ruleset gives one (三豪华清七对), else the pattern's
    if (h.tier && h.tier[lang]) return h.tier[lang];
    return lang === "zh" ? h.name : (h.name_en || h.name);
  }

  function paymentsTable(data, side) {
    const tbl = el("table", "pay");
    const cap = el("caption", null, t("payment"));
    const head = el("tr");
    for (const h of [t("seat"), t("role"), t("points")]) head.append(el("th", null, h));
    tbl.append(cap, head);
    for (const [seat, amount] of Object.entries(data.payments || {})) {
      const tr = el("tr");
      const role = seat === data.winner ? t("winner") : (amount < 0 ? t("pays") : "");
      tr.append(el("th", null, seat + (seat === "E" ? ` (${t("dealer")})` : "")), el("td", null, role));
      const td = el("td", "num " + (amount > 0 ? "plus" : amount < 0 ? "minus" : ""),
                    amount > 0 ? "+" + amount : String(amount));
      td.dataset.seat = seat;
      if (side) td.dataset.side = side;
      td.dataset.amount = String(amount);
      tr.append(td);
      tbl.append(tr);
    }
    return tbl;
  }

  function counted(items, tile) {
    // equal readings once, with how many (the report's "3m ×3 → 3m（本身） ×3")
    const out = new Map();
    for (const x of items) {
      const key = [tile(x), x.reads, x.as_self].join("|");
      const hit = out.get(key);
      if (hit) hit[1] += 1; else out.set(key, [x, 1]);
    }
    return [...out.values()];
  }
  const times = (n) => (n > 1 ? ` ×${n}` : "");

  function labelled(cls, label, text) {
    // a report line with its head, as the CLI prints it ("为何：" / "Why:")
    const p = el("p", cls);
    p.append(el("span", "label", label + (lang === "zh" ? "：" : ": ")), el("span", "text", text));
    return p;
  }

  function resultView(data) {
    const box = el("div", "scored");
    if (data.error) { box.append(errorView(data.error)); return box; }
    const best = data.best || {};
    const head = el("p", "headline");
    // the chain as the report gives it: every count (喜相逢 1×2), every unit (k, 水, 番), the bonus
    const unit = label("score");
    const names = best.chain ? best.chain.split("; ").join(" · ") :
      (best.patterns || []).map((h) => patternName(h) + " " + h.value + (h.count > 1 ? "×" + h.count : "")).join(" · ");
    head.append(el("span", "score", `${t("score")} ${best.score} ${unit}`), " ", el("span", "patterns", names || t("none")));
    box.append(wonBy(data), head, readingView(best));
    if (best.replaced && best.replaced.length) {
      const pn = (id) => { const p = (rules.patterns || []).find((x) => x.id === id); return p ? (lang === "zh" ? p.name : (p.name_en || p.name)) : id; };
      box.append(labelled("replaced", t("replaced"), best.replaced.map((r) => `${pn(r.id)} ← ${pn(r.by)}`).join(" · ")));
    }
    if (best.legend) box.append(el("p", "legend", best.legend));
    const wild = best.wildcard_detail || [];
    if (wild.length) {
      const w = el("p", "wilds");
      w.append(el("span", "label", (label("wildcard") || t("wildcards")) + ": "));
      for (const [x, n] of counted(wild, (x) => x.face)) {
        w.append(tileFace(x.face, { wild: true }), el("span", null, times(n) + " → " + x.reads + (x.as_self ? t("itself") : "") + times(n) + "  "));
      }
      box.append(w);
    }
    const stand = best.stand_ins || [];
    if (stand.length) {
      const w = el("p", "stand-ins");
      w.append(el("span", "label", t("stand_ins") + ": "));
      for (const [x, n] of counted(stand, (x) => x.tile)) {
        w.append(tileFace(x.tile, { stand: true }), el("span", null, times(n) + " → " + x.reads + (x.as_self ? t("itself") : "") + times(n) + "  "));
      }
      box.append(w);
    }
    // why the hand scored as it did, in whichever form the report gives it (text or lines)
    for (const key of ["why", "why_line", "why_lines"]) {
      for (const src of [data[key], best[key]]) {
        const lines = typeof src === "string" ? [src] : Array.isArray(src) ? src : [];
        for (const line of lines) if (typeof line === "string") box.append(labelled("why", t("why"), line));
      }
    }
    if (best.chain) box.append(labelled("chain", t("chain"), best.chain));
    if (best.payment_chain && best.payment_chain.length) {
      const ul = el("ul", "paychain");
      for (const line of best.payment_chain) ul.append(el("li", null, line));
      box.append(ul);
    }
    box.append(paymentsTable(data));
    return box;
  }

  function label(key) {
    const l = rules && rules.labels && rules.labels[key];
    return l ? l[lang] : "";
  }

  function wonBy(data) {
    // who won how, as the report's first line: "S 胡（闲家），N 放铳"
    const seat = data.winner || "E";
    const from = data.flags && data.flags["--from"];
    const how = data.self_draw ? t("how_self") : (from ? t("how_from")(from) : t("how_discard"));
    return el("p", "won-by", t("won_by")(seat, seat === "E", how));
  }

  function summaryView(data) {
    // one line at the bottom of a phone's screen: the score and who pays, always in sight
    const bar = $("summary");
    bar.replaceChildren();
    if (!data) { bar.hidden = true; return; }
    bar.hidden = false;
    if (data.error) { bar.append(el("span", "error", data.error.message)); return; }
    const best = data.best || {};
    bar.append(el("strong", null, `${t("score")} ${best.score} `),
               el("span", null, (best.patterns || []).map(patternName).join(" · ") + "  "));
    for (const [seat, amount] of Object.entries(data.payments || {})) {
      bar.append(el("span", "seat " + (amount > 0 ? "plus" : amount < 0 ? "minus" : ""),
                    `${seat} ${amount > 0 ? "+" + amount : amount}`));
    }
  }

  function waitsView(data) {
    const box = el("div", "waits");
    box.append(el("h3", null, t("waits")));
    if (!data.ready) { box.append(el("p", "not-ready", data.reason || t("not_ready"))); return box; }
    if (data.any_tile) box.append(el("p", "any", t("any_tile")));
    const ul = el("ul", "wait-list");
    for (const e of data.entries || []) {
      const li = el("li");
      const tiles = el("span", "tiles");
      for (const tl of e.tiles.slice(0, 34)) tiles.append(tileFace(tl));
      li.append(tiles);
      const outs = (e.outcomes || []).filter((o) => o.win).map((o) =>
        `${o.how === "self_draw" ? t("how_self") : t("how_discard") + (o.from ? " " + o.from : "")}: ` +
        `${(o.patterns || []).map(patternName).join(" · ")} ${o.score} (+${o.winner_gets})`);
      li.append(el("span", "outcomes", outs.join(" | ") || (e.outcomes[0] && e.outcomes[0].reason) || ""));
      ul.append(li);
    }
    box.append(ul);
    return box;
  }

  // ---------------------------------------------------------------- the dispute
  async function updateDispute(my, hand, flags) {
    const box = $("dispute");
    if (!$("vs-on").checked) { box.replaceChildren(); return; }
    const vs = $("vs-rules").value, opt = $("vs-option").value.trim();
    const args = flags.slice();
    if (vs) args.push("--vs", vs);
    if (opt) for (const part of opt.split(/[\s]+/)) if (part) args.push("--vs-option", part);
    if (!vs && !opt) { box.replaceChildren(); return; }
    const { status, data } = await api("/api/dispute", { hand, flags: args, files: filesFor(rules.id_spec, vs) });
    if (my !== seq) return;
    box.dataset.status = String(status);
    if (data.error) { box.replaceChildren(errorView(data.error)); return; }
    const diff = new Set(data.differences || []);
    const grid = el("div", "sides");
    for (const [key, side] of [["a", data.a], ["b", data.b]]) {
      const col = el("div", "side");
      const opts = Object.entries(side.options || {}).map(([k, v]) => `${k}=${v}`).join(", ");
      col.append(el("h3", null, `${key.toUpperCase()} = ${side.rules}` + (opts ? ` (${opts})` : "")));
      if (side.ignored_flags && side.ignored_flags.length) col.append(el("p", "help", `${t("ignored")}: ${side.ignored_flags.join(" ")}`));
      if (side.error) { col.append(errorView(side.error)); grid.append(col); continue; }
      const best = side.best;
      const rows = [
        ["patterns", (best.patterns || []).map((h) => patternName(h) + " " + h.value).join(" · ") || t("none")],
        ["decomposition", (best.reading || best.decomposition || []).join(" ")],
        ["chain", best.chain],
        ["score", String(best.score)],
      ];
      const dl = el("dl");
      for (const [row, value] of rows) {
        const dt = el("dt", diff.has(row) ? "diff" : null, t(row === "decomposition" ? "reading" : row));
        const dd = el("dd", diff.has(row) ? "diff" : null, value);
        if (diff.has(row)) dd.setAttribute("aria-label", `${t(row)} ≠ ${value}`);
        dl.append(dt, dd);
      }
      col.append(dl, paymentsTable(side, key));
      if (diff.has("payments")) col.lastChild.classList.add("diff");
      grid.append(col);
    }
    box.replaceChildren(el("p", "differences", `${t("differences")}: ${[...diff].map((r) => t("row_" + r)).join(", ") || t("same")}`), grid);
  }

  // ---------------------------------------------------------------- rulesets
  async function loadRules(id) {
    const spec = id;
    let data;
    if (house[spec] !== undefined) {
      ({ data } = await api("/api/rules", { name: spec, text: house[spec] }));
    } else {
      ({ data } = await api("/api/rules/" + encodeURIComponent(spec)));
    }
    if (data.error) { $("result").replaceChildren(errorView(data.error)); return; }
    data.id_spec = spec;
    data.is_upload = house[spec] !== undefined;
    rules = data;
    $("ruleset").value = spec;
    renderKeyboard();
    renderContext();
    renderMeldButtons();
    changed();
  }

  function fillRuleSelects() {
    const sel = $("ruleset"), vs = $("vs-rules");
    const cur = sel.value, curVs = vs.value;
    sel.replaceChildren();
    vs.replaceChildren(new Option("—", ""));
    for (const r of rulesList) {
      const label = `${lang === "zh" ? r.name : r.name_en} (${r.id})`;
      sel.append(new Option(label, r.spec || r.id));
      vs.append(new Option(label, r.spec || r.id));
    }
    if (cur) sel.value = cur;
    if (curVs) vs.value = curVs;
  }

  async function uploadHouse() {
    const name = $("house-name").value.trim() || "house.yaml";
    const text = $("house-text").value;
    const { data } = await api("/api/rules", { name, text });
    const st = $("house-status");
    if (data.error) { st.className = "error"; st.textContent = data.error.message; return; }
    house[name] = text;
    st.className = "ok";
    st.textContent = `${t("loaded")}: ${data.name} ${data.name_en} (${name})`;
    rulesList = rulesList.filter((r) => r.spec !== name);
    rulesList.push({ id: data.id, name: data.name + t("uploaded"), name_en: data.name_en + t("uploaded"), spec: name });
    fillRuleSelects();
    await loadRules(name);
  }

  // ---------------------------------------------------------------- language
  function setLang(l) {
    lang = l;
    document.documentElement.lang = l === "zh" ? "zh" : "en";
    $("lang-zh").setAttribute("aria-pressed", String(l === "zh"));
    $("lang-en").setAttribute("aria-pressed", String(l === "en"));
    for (const n of document.querySelectorAll("[data-t]")) n.textContent = t(n.dataset.t);
    fillRuleSelects();
    renderKeyboard();
    renderContext();
    renderMeldButtons();
    if (window.mjscoreSheet) window.mjscoreSheet.render();
    changed();
    save();
  }

  // ---------------------------------------------------------------- kept on this phone
  const KEY = "mjscore.page";
  function save() {
    try {
      localStorage.setItem(KEY, JSON.stringify({ lang, rules: rules && rules.id_spec, hand: notation(),
        flags: currentFlagValues(), glyphs: $("glyphs").checked }));
    } catch (e) { /* private mode: nothing kept */ }
  }
  function saved() {
    try { return JSON.parse(localStorage.getItem(KEY) || "null") || {}; } catch (e) { return {}; }
  }

  function glyphsWork() {
    // the mahjong tiles' characters drawn by this device's fonts, or empty boxes?
    const c = document.createElement("canvas").getContext("2d");
    if (!c) return false;
    c.font = "32px sans-serif";
    const tile = c.measureText("\u{1F000}").width, none = c.measureText("\u{10FFFD}").width;
    return tile > 0 && Math.abs(tile - none) > 0.5;
  }

  window.mjscore = {
    t: (k) => t(k), lang: () => lang, rules: () => rules, notation: () => notation(),
    flags: () => flagArgs().filter((a, i, all) => !["--rules", "--lang"].includes(a) && !["--rules", "--lang"].includes(all[i - 1])),
    clear: () => { state.melds = []; state.concealed = []; state.open = null; state.text = null; changed(); },
    // a booked line back on the keyboard: its hand as typed, its flags in the fields
    setHand: (hand, flags) => {
      for (const input of document.querySelectorAll("#flags [data-flag]")) {
        const at = flags.indexOf(input.dataset.flag);
        if (input.type === "checkbox") input.checked = at >= 0;
        else input.value = at >= 0 && at + 1 < flags.length ? flags[at + 1] : (input.tagName === "SELECT" ? input.options[0].value : "");
      }
      $("notation").value = hand;
      $("notation").dispatchEvent(new Event("input"));
    },
    api, loadRules: (id) => loadRules(id), house,
  };

  // ---------------------------------------------------------------- start
  async function start() {
    const keep = saved();
    if (!glyphsWork()) { $("glyphs").checked = false; $("glyphs").disabled = true; $("glyphs").title = t("no_glyphs"); }
    else if (keep.glyphs) $("glyphs").checked = true;
    if (keep.lang === "en") { lang = "en"; document.documentElement.lang = "en"; }
    renderKeyboard();
    for (const m of ["chi", "peng", "gang", "angang"]) {
      $("m-" + m).addEventListener("click", () => { meldMode = meldMode === m ? null : m; renderMeldButtons(); });
    }
    $("retry").addEventListener("click", () => update());
    window.addEventListener("online", () => update());
    $("notation").addEventListener("input", () => {
      const text = $("notation").value;
      $("notation").removeAttribute("aria-invalid");
      const parsed = parseNotation(text);
      if (parsed) {
        state.melds = parsed.melds; state.concealed = parsed.concealed; state.open = null; state.text = null;
        // keep the text as typed when the page would write it differently (the order of tiles)
        if (notation() !== text.replace(/\s+/g, "")) state.text = text.replace(/\s+/g, "");
      } else {
        state.text = text; // the server reads it and says where it is wrong
      }
      renderHand();
      clearTimeout(timer);
      timer = setTimeout(update, 200);
    });
    $("meld").addEventListener("click", () => {
      state.text = null;
      if (state.open) { if (!state.open.tiles.length) state.melds.pop(); state.open = null; }
      else { state.open = { tiles: [], offer: $("offer").value, as: "" }; state.melds.push(state.open); }
      changed();
    });
    $("meld-done").addEventListener("click", () => {
      if (state.open) { state.open.offer = $("offer").value; if (!state.open.tiles.length) state.melds.pop(); state.open = null; }
      changed();
    });
    $("offer").addEventListener("change", () => { if (state.open) { state.open.offer = $("offer").value; changed(); } });
    $("win-mode").addEventListener("click", () => { state.winMode = !state.winMode; renderHand(); });
    $("undo").addEventListener("click", () => {
      state.text = null;
      if (state.open && state.open.tiles.length) state.open.tiles.pop();
      else if (state.concealed.length) state.concealed.pop();
      else if (state.melds.length) { state.melds.pop(); state.open = null; }
      changed();
    });
    $("clear").addEventListener("click", () => {
      state.melds = []; state.concealed = []; state.open = null; state.text = null; changed();
    });
    $("glyphs").addEventListener("change", () => { renderKeyboard(); renderHand(); update(); });
    $("lang-zh").addEventListener("click", () => setLang("zh"));
    $("lang-en").addEventListener("click", () => setLang("en"));
    $("ruleset").addEventListener("change", () => loadRules($("ruleset").value));
    for (const id of ["vs-on", "vs-rules"]) $(id).addEventListener("change", changed);
    $("vs-option").addEventListener("input", changed);
    $("house-load").addEventListener("click", uploadHouse);
    $("house-file").addEventListener("change", () => {
      const f = $("house-file").files[0];
      if (!f) return;
      if (f.size > 512 * 1024) { $("house-status").textContent = "> 512 KiB"; return; }
      $("house-name").value = f.name.replace(/[^A-Za-z0-9_.-]/g, "_").slice(0, 64) || "house.yaml";
      const reader = new FileReader();
      reader.onload = () => { $("house-text").value = String(reader.result); uploadHouse(); };
      reader.readAsText(f);
    });
    const { data } = await api("/api/rules");
    rulesList = Array.isArray(data) ? data : [];
    fillRuleSelects();
    const params = new URLSearchParams(location.search);
    const first = params.get("rules") || (params.get("t") ? null : keep.rules);
    await loadRules(rulesList.some((r) => r.id === first) ? first : (rulesList[0] || {}).id);
    if (lang === "en") setLang("en");
    renderMeldButtons();
    const h = params.get("hand") || (params.get("rules") ? null : keep.hand);
    if (h) { $("notation").value = h; $("notation").dispatchEvent(new Event("input")); }
    if (!params.get("rules") && keep.flags) {
      for (const [field, v] of Object.entries(keep.flags)) {
        const input = $("f-" + field);
        if (!input) continue;
        if (input.type === "checkbox") input.checked = v; else input.value = v;
      }
      changed();
    }
    if (window.mjscoreSheet) await window.mjscoreSheet.start();
    document.body.dataset.ready = "1";
  }

  document.addEventListener("DOMContentLoaded", start);
})();
