import { createHash } from "node:crypto";

/**
 * What the script does: each `<time datetime>` that names a moment (not a bare date) is shown in
 * the viewer's time zone, in the page's language; the UTC text the server wrote stays as its
 * title. Without JavaScript the UTC text stays, with its zone named.
 */
const SOURCE = `(function(){var l=document.documentElement.lang||undefined,f;try{f=new Intl.DateTimeFormat(l,{year:"numeric",month:"short",day:"numeric",hour:"2-digit",minute:"2-digit",timeZoneName:"short"})}catch(x){return}var t=document.querySelectorAll("time[datetime]");for(var i=0;i<t.length;i++){var s=t[i].getAttribute("datetime");if(s.indexOf("T")<0)continue;var d=new Date(s);if(isNaN(d.getTime()))continue;t[i].title=t[i].textContent;t[i].textContent=f.format(d)}})();`;

/** The inline script, at the end of a page's body. */
export const LOCAL_TIMES_SCRIPT = `<script>${SOURCE}</script>`;

/** The script's hash as a CSP source (`script-src`): no other script runs on the pages. */
export const LOCAL_TIMES_CSP_SOURCE = `'sha256-${createHash("sha256").update(SOURCE).digest("base64")}'`;
