/* etw4j report script (written for etw4j, module etw-report; no third-party code).
 * Reads the JSON in #etw4j-data (shape: HtmlReport.writeData) and builds the page: every text from the trace goes
 * in through textContent or canvas fillText, never as HTML. Publishes window.etw4jReport (sizes, counts) for tests.
 */
(function () {
  'use strict';
  var data = JSON.parse(document.getElementById('etw4j-data').textContent);
  var state = { rootSamples: 0, drawnFrames: 0, chartBuckets: 0, ready: false, readyMs: 0 };
  window.etw4jReport = state;

  var COLORS = ['#2f6db5', '#e8743b', '#19a979', '#ed4a7b', '#945ecf', '#13a4b4', '#9aa4ae'];

  function $(id) { return document.getElementById(id); }

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) { e.className = cls; }
    if (text !== undefined && text !== null) { e.textContent = String(text); }
    return e;
  }

  function svg(tag, attrs) {
    var e = document.createElementNS('http://www.w3.org/2000/svg', tag);
    for (var k in attrs) { if (Object.prototype.hasOwnProperty.call(attrs, k)) { e.setAttribute(k, attrs[k]); } }
    return e;
  }

  function fmt(n) { return Number(n).toLocaleString('en-US'); }

  function pct(part, whole) { return whole > 0 ? (100 * part / whole).toFixed(part * 1000 < whole ? 2 : 1) + '%' : ''; }

  /** Seconds (from 100 ns units) as text with a sensible unit. */
  function duration(hundredNs) {
    var s = hundredNs / 1e7;
    if (s >= 120) { return (s / 60).toFixed(1) + ' min'; }
    if (s >= 1) { return s.toFixed(3) + ' s'; }
    return (s * 1000).toFixed(3) + ' ms';
  }

  function row(table, cells, header) {
    var tr = el('tr');
    cells.forEach(function (c) {
      var td = el(header ? 'th' : 'td', c.cls || '', c.text);
      if (c.node) { td.appendChild(c.node); }
      if (c.title) { td.title = c.title; }
      tr.appendChild(td);
    });
    table.appendChild(tr);
    return tr;
  }

  // ------------------------------------------------------------------------------------------- facts, providers

  function renderFacts() {
    $('file-name').textContent = data.file;
    var t = $('facts');
    row(t, [{ text: 'file' }, { text: data.file + '  (' + fmt(data.fileBytes) + ' bytes)' }]);
    data.facts.forEach(function (f) { row(t, [{ text: f[0] }, { text: f[1] }]); });
    if (data.totalRecords > 0) {
      row(t, [{ text: 'duration' }, { text: duration(data.durationHundredNs) + ' (first to last record)' }]);
    }
    var c = data.cpu;
    var cpu = fmt(c.samples) + ' samples';
    if (c.samples > 0 && c.samplesWithStack >= 0) { cpu += ', ' + fmt(c.samplesWithStack) + ' with a stack'; }
    if (c.intervalHundredNs > 0) { cpu += ', every ' + (c.intervalHundredNs / 1e4).toFixed(4) + ' ms'; }
    row(t, [{ text: 'CPU samples' }, { text: cpu }]);
  }

  function renderProviders() {
    var t = $('providers');
    row(t, [{ text: '#', cls: 'num' }, { text: 'provider' }, { text: 'GUID' }, { text: 'records', cls: 'num' },
      { text: 'share', cls: 'num' }, { text: 'header kinds' }], true);
    data.providers.forEach(function (p, i) {
      row(t, [{ text: i + 1, cls: 'num' }, { text: p.name || '(name not in the trace)' }, { text: p.id, cls: 'mono' },
        { text: fmt(p.records), cls: 'num' }, { text: pct(p.records, data.totalRecords), cls: 'num' },
        { text: p.kinds, cls: 'wrap' }]);
    });
  }

  // ------------------------------------------------------------------------------------------- events per second

  /** About n round tick values from 0 to the first at or above max. */
  function ticks(max, n) {
    if (!(max > 0)) { return [0]; }
    var raw = max / n;
    var mag = Math.pow(10, Math.floor(Math.log10(raw)));
    var step = [1, 2, 5, 10].map(function (m) { return m * mag; }).find(function (s) { return s >= raw; });
    var out = [0];
    while (out[out.length - 1] < max) { out.push(+(out.length * step).toPrecision(12)); } // up to the first >= max
    return out;
  }

  function renderRate() {
    var r = data.rate;
    var box = $('rate-chart');
    box.textContent = '';
    var series = r.series;
    var n = series.length ? series[0].counts.length : 0;
    state.chartBuckets = n;
    var seconds = r.bucketHundredNs / 1e7;
    var own = series.filter(function (x) { return !x.others; }).length;
    $('rate-note').textContent = n === 0 ? 'The trace has no records.'
      : 'Records per second in buckets of ' + duration(r.bucketHundredNs) + ' from the first '
        + (r.outliers && r.outliers.count > 0 ? 'plotted ' : '') + 'record (' + n
        + ' buckets; the last one may be partly filled), stacked by provider'
        + (own < series.length ? ': the ' + own + ' busiest providers and the others together.' : '.')
        + (r.outliers && r.outliers.count > 0 ? ' Not plotted: ' + r.outliers.count + ' record'
          + (r.outliers.count === 1 ? '' : 's') + ' with timestamps outside the trace\'s time range ('
          + r.outliers.rangeStart + ' to ' + r.outliers.rangeEnd + ', from the logfile header widened by its length);'
          + ' earliest ' + r.outliers.earliest + ', latest ' + r.outliers.latest + '.' : '');
    var legend = $('rate-legend');
    legend.textContent = '';
    series.forEach(function (s, i) {
      var span = el('span');
      var sw = el('i');
      sw.style.background = COLORS[i % COLORS.length];
      span.appendChild(sw);
      span.appendChild(document.createTextNode(s.name));
      legend.appendChild(span);
    });
    var W = Math.max(480, box.clientWidth || 900);
    var H = 260;
    var m = { l: 64, r: 12, t: 8, b: 34 };
    var w = W - m.l - m.r;
    var h = H - m.t - m.b;
    var root = svg('svg', { width: W, height: H, id: 'rate-svg', role: 'img', 'aria-label': 'events per second' });
    box.appendChild(root);
    if (n === 0) { return; }
    var tops = new Array(n).fill(0);
    var layers = series.map(function (s) {
      var low = tops.slice();
      for (var b = 0; b < n; b++) { tops[b] += s.counts[b] / seconds; }
      return { low: low, high: tops.slice() };
    });
    var ymax = Math.max.apply(null, tops) || 1;
    var yt = ticks(ymax, 5);
    var ytop = Math.max(ymax, yt[yt.length - 1]);
    function X(b) { return m.l + w * b / n; }
    function Y(v) { return m.t + h - h * v / ytop; }
    var gAxis = svg('g', { 'class': 'axis' });
    root.appendChild(gAxis);
    yt.forEach(function (v) {
      gAxis.appendChild(svg('line', { 'class': 'grid-line', x1: m.l, x2: m.l + w, y1: Y(v), y2: Y(v) }));
      var t = svg('text', { x: m.l - 6, y: Y(v) + 4, 'text-anchor': 'end' });
      t.textContent = fmt(v);
      gAxis.appendChild(t);
    });
    layers.forEach(function (L, i) {
      var d = 'M' + X(0) + ',' + Y(L.high[0]);
      for (var b = 0; b < n; b++) { d += 'H' + X(b) + 'V' + Y(L.high[b]) + 'H' + X(b + 1); }
      for (var c = n - 1; c >= 0; c--) { d += 'V' + Y(L.low[c]) + 'H' + X(c); }
      d += 'Z';
      root.appendChild(svg('path', { d: d, fill: COLORS[i % COLORS.length], 'fill-opacity': 0.85, stroke: 'none' }));
    });
    var total = n * seconds;
    var xt = ticks(total, Math.max(2, Math.floor(w / 90)));
    gAxis.appendChild(svg('line', { x1: m.l, x2: m.l + w, y1: m.t + h, y2: m.t + h }));
    xt.forEach(function (v) {
      var x = m.l + w * v / total;
      if (x > m.l + w + 0.5) { return; }
      gAxis.appendChild(svg('line', { x1: x, x2: x, y1: m.t + h, y2: m.t + h + 4 }));
      var t = svg('text', { x: x, y: m.t + h + 16, 'text-anchor': 'middle' });
      t.textContent = +v.toPrecision(6) + ' s';
      gAxis.appendChild(t);
    });
    var cap = svg('text', { x: m.l + w, y: H - 2, 'text-anchor': 'end' });
    cap.textContent = 'seconds since the first record';
    gAxis.appendChild(cap);
    var cursor = svg('line', { x1: 0, x2: 0, y1: m.t, y2: m.t + h, stroke: '#1d232a', 'stroke-width': 1, visibility: 'hidden' });
    root.appendChild(cursor);
    root.addEventListener('mousemove', function (ev) {
      var rect = root.getBoundingClientRect();
      var b = Math.floor((ev.clientX - rect.left - m.l) / w * n);
      if (b < 0 || b >= n) { hideTip(); cursor.setAttribute('visibility', 'hidden'); return; }
      cursor.setAttribute('x1', X(b + 0.5));
      cursor.setAttribute('x2', X(b + 0.5));
      cursor.setAttribute('visibility', 'visible');
      var lines = [['', (b * seconds).toFixed(3) + ' s to ' + ((b + 1) * seconds).toFixed(3) + ' s']];
      var sum = 0;
      series.forEach(function (s) { sum += s.counts[b]; });
      lines.push(['all', fmt(Math.round(sum / seconds)) + ' /s (' + fmt(sum) + ' records)']);
      series.forEach(function (s) {
        if (s.counts[b] > 0) { lines.push([s.name, fmt(Math.round(s.counts[b] / seconds)) + ' /s']); }
      });
      showTip(ev, lines);
    });
    root.addEventListener('mouseleave', function () { hideTip(); cursor.setAttribute('visibility', 'hidden'); });
  }

  // ------------------------------------------------------------------------------------------- tooltip

  function showTip(ev, lines) {
    var tip = $('tooltip');
    tip.textContent = '';
    lines.forEach(function (l, i) {
      var d = el('div');
      if (l[0]) { d.appendChild(el('b', '', l[0] + ': ')); }
      d.appendChild(document.createTextNode(l[1]));
      if (i === 0 && !l[0]) { d.style.fontWeight = '600'; }
      tip.appendChild(d);
    });
    tip.hidden = false;
    var x = ev.clientX + 14;
    var y = ev.clientY + 14;
    var r = tip.getBoundingClientRect();
    if (x + r.width > window.innerWidth - 4) { x = Math.max(4, ev.clientX - r.width - 14); }
    if (y + r.height > window.innerHeight - 4) { y = Math.max(4, ev.clientY - r.height - 14); }
    tip.style.left = x + 'px';
    tip.style.top = y + 'px';
  }

  function hideTip() { $('tooltip').hidden = true; }

  // ------------------------------------------------------------------------------------------- processes

  function renderProcesses() {
    var c = data.cpu;
    var t = $('processes');
    if (c.samples === 0) {
      $('processes-note').textContent = '';
      var p = el('p', 'empty', 'no CPU samples: the trace has no PerfInfo/SampleProf events (record with the kernel\'s profile flag).');
      t.parentNode.replaceChild(p, t);
      p.id = 'processes';
      return;
    }
    $('processes-note').textContent = 'Samples per process instance (a reused process id is listed once per instance), '
      + 'from the kernel\'s PerfInfo/SampleProf events; ' + fmt(c.samples) + ' samples in all.';
    row(t, [{ text: '#', cls: 'num' }, { text: 'process' }, { text: 'pid', cls: 'num' }, { text: 'samples', cls: 'num' },
      { text: 'share', cls: 'num' }, { text: '' }, { text: 'image' }], true);
    var max = c.processes.length ? c.processes[0].samples : 1;
    c.processes.forEach(function (p, i) {
      var bar = el('div', 'bar');
      bar.style.width = (100 * p.samples / max).toFixed(2) + '%';
      var cells = [{ text: i + 1, cls: 'num' }, { text: p.label }, { text: p.pid, cls: 'num' },
        { text: fmt(p.samples), cls: 'num' }, { text: pct(p.samples, c.samples), cls: 'num' },
        { node: bar }, { text: p.image, cls: 'wrap', title: p.commandLine }];
      var tr = row(t, cells);
      tr.children[5].style.width = '22%';
    });
    if (c.otherProcesses > 0) {
      row(t, [{ text: '' }, { text: c.otherProcesses + ' other processes' }, { text: '' },
        { text: fmt(c.otherProcessSamples), cls: 'num' }, { text: pct(c.otherProcessSamples, c.samples), cls: 'num' },
        { text: '' }, { text: '' }]);
    }
  }

  // ------------------------------------------------------------------------------------------- flame graph

  var flame = { root: null, focus: null, rects: [], search: '' };
  var ROW = 18;

  /** A frame's name in module view: the offset dropped ("ntoskrnl!+0x1f2" -> "ntoskrnl!?", "m!A.B.M+0x10" -> "m!A.B.M"). */
  function moduleName(name) {
    var m = /^(.*?)(!)?\+0x[0-9a-f]+$/.exec(name);
    if (!m) { return name; }
    return m[2] ? m[1] + '!?' : m[1];
  }

  function node(name, parent) {
    return { name: name, value: 0, self: 0, kids: new Map(), list: null, parent: parent, depth: parent ? parent.depth + 1 : 0, x: 0 };
  }

  /** Builds the tree of the stacks: root "all samples", then the process, then frames root first. */
  function buildTree(addresses) {
    var frames = data.cpu.frames;
    var names = addresses ? frames : frames.map(moduleName);
    var root = node('all samples', null);
    data.cpu.stacks.forEach(function (s) {
      var count = s[0];
      var at = root;
      root.value += count;
      var last = -1;
      for (var i = 1; i < s.length; i++) {
        var name = names[s[i]];
        if (!addresses && i > 1 && name === last && /!\?$/.test(name)) { continue; } // a native module's run: one box
        last = name;
        var k = at.kids.get(name);
        if (!k) { k = node(name, at); at.kids.set(name, k); }
        k.value += count;
        at = k;
      }
      at.self += count;
    });
    (function order(n, x) {
      n.x = x;
      n.list = Array.from(n.kids.values()).sort(function (a, b) { return b.value - a.value || (a.name < b.name ? -1 : 1); });
      n.kids = null;
      var cx = x;
      n.list.forEach(function (k) { order(k, cx); cx += k.value; });
    })(root, 0);
    flame.root = root;
    flame.focus = root;
    state.rootSamples = root.value;
  }

  function hue(name) {
    var h = 0;
    for (var i = 0; i < name.length; i++) { h = (h * 31 + name.charCodeAt(i)) | 0; }
    return Math.abs(h);
  }

  function color(n) {
    var h = hue(n.name);
    if (n.depth === 0) { return '#b9c2cc'; }
    if (n.depth === 1) { return 'hsl(210,45%,' + (66 + h % 12) + '%)'; } // processes
    if (/^0x[0-9a-f]+$/.test(n.name) || n.name.indexOf('?!') === 0) { return 'hsl(0,0%,' + (72 + h % 10) + '%)'; }
    if (/!(\?|\+0x[0-9a-f]+)$/.test(n.name)) { // native: module!? or module!+0xOFFSET
      return 'hsl(' + (14 + h % 32) + ',' + (72 + h % 18) + '%,' + (55 + h % 14) + '%)';
    }
    return 'hsl(' + (95 + h % 40) + ',55%,' + (55 + h % 12) + '%)'; // .NET methods: [Module!]Namespace.Type.Method
  }

  function matches(n) { return flame.search !== '' && n.name.toLowerCase().indexOf(flame.search) >= 0; }

  function drawFlame() {
    var canvas = $('flame');
    var box = $('flame-box');
    var W = Math.max(480, box.clientWidth || 900);
    var focus = flame.focus;
    var scale = W / focus.value;
    var depth = 0;
    (function deepest(n) { // the canvas is as tall as the deepest box wide enough to be drawn
      if (n.value * scale < 0.4) { return; }
      if (n.depth > depth) { depth = n.depth; }
      for (var i = 0; i < n.list.length; i++) { deepest(n.list[i]); }
    })(focus);
    var H = (depth + 1) * ROW + 2;
    var dpr = window.devicePixelRatio || 1;
    canvas.width = Math.round(W * dpr);
    canvas.height = Math.round(H * dpr);
    canvas.style.width = W + 'px';
    canvas.style.height = H + 'px';
    var g = canvas.getContext('2d');
    g.setTransform(dpr, 0, 0, dpr, 0, 0);
    g.clearRect(0, 0, W, H);
    g.font = '11px system-ui, "DejaVu Sans", sans-serif';
    g.textBaseline = 'middle';
    var rects = [];
    var matched = 0;
    function box1(n, x, w, dim) {
      var y = n.depth * ROW;
      var hit = matches(n);
      g.fillStyle = hit ? '#e040fb' : color(n);
      g.globalAlpha = dim ? 0.55 : 1;
      g.fillRect(x, y, Math.max(w - 0.5, 0.5), ROW - 1);
      g.globalAlpha = 1;
      if (w > 28) {
        g.fillStyle = '#111';
        var label = fit(g, n.name + (n.depth === 0 ? ' (' + fmt(n.value) + ')' : ''), w - 6);
        if (label) { g.fillText(label, x + 3, y + ROW / 2); }
      }
      rects.push({ x: x, y: y, w: w, n: n });
    }
    // Ancestors of the zoomed frame: full width, dimmed.
    for (var a = focus.parent; a; a = a.parent) { box1(a, 0, W, true); }
    (function walk(n) {
      var w = n.value * scale;
      if (w < 0.4) { return; }
      if (matches(n)) { matched += n.value; }
      box1(n, (n.x - focus.x) * scale, w, false);
      for (var i = 0; i < n.list.length; i++) { walk(n.list[i]); }
    })(focus);
    flame.rects = rects;
    state.drawnFrames = rects.length;
    canvas.dataset.rootSamples = String(flame.root.value);
    canvas.dataset.drawnFrames = String(rects.length);
    $('flame-match').textContent = flame.search === '' ? '' : 'matched: ' + pct(matched, focus.value) + ' of the shown samples';
    var path = [];
    for (var p = focus; p; p = p.parent) { path.unshift(p.name); }
    $('flame-path').textContent = focus === flame.root ? 'Click a box to zoom into it; hover for its name and samples.'
      : 'zoomed: ' + path.join(' \u203a ');
  }

  function fit(g, text, width) {
    if (g.measureText(text).width <= width) { return text; }
    var lo = 0;
    var hi = text.length;
    while (lo < hi) {
      var mid = (lo + hi + 1) >> 1;
      if (g.measureText(text.slice(0, mid) + '\u2026').width <= width) { lo = mid; } else { hi = mid - 1; }
    }
    return lo < 2 ? '' : text.slice(0, lo) + '\u2026';
  }

  function rectAt(ev) {
    var canvas = $('flame');
    var r = canvas.getBoundingClientRect();
    var x = ev.clientX - r.left;
    var y = ev.clientY - r.top;
    for (var i = flame.rects.length - 1; i >= 0; i--) {
      var q = flame.rects[i];
      if (x >= q.x && x < q.x + Math.max(q.w, 1) && y >= q.y && y < q.y + ROW) { return q.n; }
    }
    return null;
  }

  function renderFlame() {
    var c = data.cpu;
    var canvas = $('flame');
    if (c.samples === 0) {
      $('flame-controls').hidden = true;
      $('flame-note').textContent = '';
      var p = el('p', 'empty', 'no CPU samples: the trace has no PerfInfo/SampleProf events, so there is no flame graph.');
      p.id = 'flame-empty';
      $('flame-box').replaceWith(p);
      state.rootSamples = 0;
      return;
    }
    $('flame-note').textContent = 'Root at the top (icicle layout); width is samples; boxes side by side are ordered '
      + 'by samples, most first. Frames are module!? per module (native function names need PDB symbol files, '
      + 'which a trace does not carry), Module!Namespace.Type.Method for .NET code compiled at run time, 0x... for '
      + 'addresses in no known image. ' + (c.samplesWithStack >= 0 && c.samplesWithStack < c.samples
        ? fmt(c.samples - c.samplesWithStack) + ' samples had no stack: their sampled address stands alone.' : '');
    buildTree(false);
    drawFlame();
    canvas.addEventListener('mousemove', function (ev) {
      var n = rectAt(ev);
      if (!n) { hideTip(); return; }
      showTip(ev, [['', n.name], ['samples', fmt(n.value) + ' (' + pct(n.value, flame.root.value) + ' of all'
        + (flame.focus !== flame.root ? ', ' + pct(n.value, flame.focus.value) + ' of the zoomed frame' : '') + ')'],
        ['self', fmt(n.self)]]);
    });
    canvas.addEventListener('mouseleave', hideTip);
    canvas.addEventListener('click', function (ev) {
      var n = rectAt(ev);
      if (n) { flame.focus = n; drawFlame(); }
    });
    $('flame-reset').addEventListener('click', function () { flame.focus = flame.root; drawFlame(); });
    $('flame-addresses').addEventListener('change', function (ev) {
      buildTree(ev.target.checked);
      drawFlame();
    });
    $('flame-search').addEventListener('input', function (ev) {
      flame.search = ev.target.value.trim().toLowerCase();
      drawFlame();
    });
  }

  renderFacts();
  renderRate();
  renderProviders();
  renderProcesses();
  renderFlame();
  var resizing = 0;
  window.addEventListener('resize', function () {
    clearTimeout(resizing);
    resizing = setTimeout(function () { renderRate(); if (flame.root) { drawFlame(); } }, 150);
  });
  state.readyMs = Math.round(performance.now()); // since the navigation started: parse, data, first drawing
  state.ready = true;
})();
