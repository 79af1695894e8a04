import { BAR_DAYS } from "./view";

/**
 * The page's only stylesheet, inlined: no external assets, so the page works offline. Colours
 * come from custom properties switched by `prefers-color-scheme`.
 */
export const STATUS_PAGE_CSS = `
:root{--bg:#fff;--fg:#1b1f24;--muted:#57606a;--card:#f6f8fa;--line:#d0d7de;
--ok:#1a7f37;--warn:#bf8700;--bad:#cf222e;--none:#d0d7de;--maint:#0969da;--degraded:#bc4c00;--link:#0969da;--button:#0969da;color-scheme:light dark}
@media (prefers-color-scheme:dark){:root{--bg:#0d1117;--fg:#e6edf3;--muted:#8d96a0;--card:#161b22;--line:#30363d;
--ok:#3fb950;--warn:#d29922;--bad:#f85149;--none:#30363d;--maint:#58a6ff;--degraded:#db6d28;--link:#58a6ff;--button:#1f6feb}}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--fg);font:16px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif}
main{max-width:60rem;margin:0 auto;padding:1.5rem 1rem 3rem}
h1{margin:0 0 .25rem;font-size:1.75rem}h2{font-size:1.25rem;margin:2rem 0 .75rem}h3{font-size:1rem;margin:0}
.muted{color:var(--muted)}
.overall{margin:1rem 0;padding:1rem;border-radius:.5rem;border:1px solid var(--line);background:var(--card);font-weight:600}
.overall.operational{border-left:.5rem solid var(--ok)}.overall.degraded{border-left:.5rem solid var(--warn)}
.overall.down{border-left:.5rem solid var(--bad)}.overall.slow{border-left-color:var(--degraded)}.overall.unknown{border-left:.5rem solid var(--none)}
ul.monitors,ol.bar,ul.incidents{list-style:none;margin:0;padding:0}
li.monitor{padding:1rem 0;border-bottom:1px solid var(--line)}
.head{display:flex;justify-content:space-between;gap:1rem;align-items:baseline;flex-wrap:wrap}
.state{font-weight:600}.state.up{color:var(--ok)}.state.down{color:var(--bad)}.state.degraded{color:var(--degraded)}.state.paused,.state.pending{color:var(--muted)}
ol.bar{display:grid;grid-template-columns:repeat(${BAR_DAYS},1fr);gap:2px;margin:.5rem 0 .25rem;height:2rem}
ol.bar li{border-radius:2px;background:var(--none)}
ol.bar li.ok{background:var(--ok)}ol.bar li.warn{background:var(--warn)}ol.bar li.bad{background:var(--bad)}
ol.bar li.maint{background:var(--maint)}
ol.bar li.none{background:repeating-linear-gradient(45deg,var(--none) 0 3px,transparent 3px 5px)}
.scale{display:flex;justify-content:space-between;font-size:.8rem}
.legend{display:flex;gap:1rem;flex-wrap:wrap;font-size:.85rem;margin:.5rem 0 0;padding:0;list-style:none}
.legend span{display:inline-block;width:.8rem;height:.8rem;border-radius:2px;margin-right:.3rem;vertical-align:-1px}
.vh{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
ul.incidents li{padding:.5rem 0;border-bottom:1px solid var(--line)}
footer{margin-top:2rem;font-size:.85rem}
`;

/** What the sections, incidents, charts and forms add to the page's stylesheet. */
export const STATUS_EXTRA_CSS = `
header.brand{border-top:.4rem solid var(--brand,transparent);padding-top:.75rem}header.brand h1 a{color:inherit;text-decoration:none}
.logo{display:block;margin-bottom:.5rem;max-height:40px;width:auto}
a{color:var(--link)}
ul.components,ol.updates,ul.maintenance{list-style:none;margin:0;padding:0}
li.component{padding:1rem 0;border-bottom:1px solid var(--line)}
.state.operational{color:var(--ok)}.state.maintenance{color:var(--maint)}.state.unknown{color:var(--muted)}
ol.bar li{position:relative}ol.bar li:focus{outline:2px solid var(--fg);outline-offset:1px}
ol.bar li .tip{display:none;position:absolute;bottom:110%;left:50%;transform:translateX(-50%);z-index:2;min-width:12rem;padding:.4rem .5rem;
border-radius:.3rem;background:var(--fg);color:var(--bg);font-size:.8rem}
ol.bar li:hover .tip,ol.bar li:focus .tip{display:block}
ol.bar li:nth-child(-n+45) .tip{left:0;transform:none}ol.bar li:nth-child(n+46) .tip{left:auto;right:0;transform:none}
.charts{display:grid;grid-template-columns:repeat(auto-fit,minmax(14rem,1fr));gap:1rem;margin-top:.5rem}
figure.chart{margin:0}figure.chart svg{width:100%;height:3.5rem;background:var(--card);border-radius:.3rem}
figure.chart polyline{fill:none;stroke:var(--maint);stroke-width:1.5;vector-effect:non-scaling-stroke}figure.chart circle{fill:var(--maint)}
figure.chart figcaption{font-size:.8rem}
article.incident{padding:.75rem 1rem;margin:.75rem 0;border:1px solid var(--line);border-radius:.5rem;background:var(--card)}
article.incident.open{border-left:.4rem solid var(--bad)}article.incident h3{margin:0 0 .25rem}
ol.updates li{padding:.4rem 0;border-top:1px solid var(--line)}ol.updates p{margin:.2rem 0 0}
ul.maintenance li{padding:.4rem 0}
form.subscribe{display:flex;gap:.5rem;flex-wrap:wrap;align-items:center}
form.subscribe input,form.password input{padding:.4rem;font:inherit;border:1px solid var(--muted);border-radius:.3rem;background:var(--bg);color:var(--fg)}
button{padding:.45rem .8rem;font:inherit;border:0;border-radius:.3rem;background:var(--button);color:#fff;cursor:pointer}
`;
