import type { StatusPageLocale } from "../../api";
import { BAR_DAYS } from "./view";

/** The words a status page says, in one language. */
export interface PageWords {
  operational: string;
  degradedSome: string;
  degradedPerf: string;
  down: string;
  unknown: string;
  maintenance: string;
  states: Record<"operational" | "degraded" | "down" | "maintenance" | "unknown", string>;
  incidentStates: Record<"investigating" | "identified" | "monitoring" | "resolved", string>;
  activeIncidents: string;
  recentIncidents: string;
  noIncidents: string;
  history: string;
  maintenanceTitle: string;
  inProgress: string;
  upcoming: string;
  uptime30: string;
  noData: string;
  daysAgo: (n: number) => string;
  today: string;
  responseTime: string;
  subscribe: string;
  subscribeHint: string;
  email: string;
  lastUpdated: string;
  postmortem: string;
  password: string;
  enter: string;
}

const EN: PageWords = {
  operational: "✓ All systems operational",
  degradedSome: "! Some systems are down",
  degradedPerf: "◔ Degraded performance",
  down: "✗ All systems are down",
  unknown: "… No checks yet",
  maintenance: "⚒ Under maintenance",
  states: {
    operational: "✓ Operational",
    degraded: "◔ Degraded",
    down: "✗ Down",
    maintenance: "⚒ Maintenance",
    unknown: "… Unknown",
  },
  incidentStates: {
    investigating: "Investigating",
    identified: "Identified",
    monitoring: "Monitoring",
    resolved: "Resolved",
  },
  activeIncidents: "Active incidents",
  recentIncidents: "Recent incidents",
  noIncidents: `No incidents in the last ${BAR_DAYS} days.`,
  history: "Incident history",
  maintenanceTitle: "Maintenance",
  inProgress: "In progress",
  upcoming: "Upcoming",
  uptime30: "uptime (30 days)",
  noData: "no data",
  daysAgo: (n) => `${n} days ago`,
  today: "today",
  responseTime: "Response time",
  subscribe: "Subscribe to updates",
  subscribeHint: "We send a confirmation first; every mail has an unsubscribe link.",
  email: "Email address",
  lastUpdated: "Last updated",
  postmortem: "Post-mortem",
  password: "Password",
  enter: "Show the page",
};

const WORDS: Record<StatusPageLocale, PageWords> = {
  en: EN,
  de: {
    ...EN,
    operational: "✓ Alle Systeme funktionieren",
    degradedSome: "! Einige Systeme sind ausgefallen",
    degradedPerf: "◔ Eingeschränkte Leistung",
    down: "✗ Alle Systeme sind ausgefallen",
    unknown: "… Noch keine Prüfungen",
    maintenance: "⚒ Wartungsarbeiten",
    states: {
      operational: "✓ In Betrieb",
      degraded: "◔ Eingeschränkt",
      down: "✗ Ausgefallen",
      maintenance: "⚒ Wartung",
      unknown: "… Unbekannt",
    },
    incidentStates: {
      investigating: "Wird untersucht",
      identified: "Ursache gefunden",
      monitoring: "Wird beobachtet",
      resolved: "Behoben",
    },
    activeIncidents: "Aktuelle Störungen",
    recentIncidents: "Letzte Störungen",
    noIncidents: `Keine Störungen in den letzten ${BAR_DAYS} Tagen.`,
    history: "Störungsverlauf",
    maintenanceTitle: "Wartung",
    inProgress: "Läuft",
    upcoming: "Geplant",
    uptime30: "Verfügbarkeit (30 Tage)",
    noData: "keine Daten",
    daysAgo: (n) => `vor ${n} Tagen`,
    today: "heute",
    responseTime: "Antwortzeit",
    subscribe: "Updates abonnieren",
    subscribeHint: "Sie erhalten zuerst eine Bestätigung; jede Mail enthält einen Abmeldelink.",
    email: "E-Mail-Adresse",
    lastUpdated: "Zuletzt aktualisiert",
    postmortem: "Nachbetrachtung",
    password: "Passwort",
    enter: "Seite anzeigen",
  },
  fr: {
    ...EN,
    operational: "✓ Tous les systèmes fonctionnent",
    degradedSome: "! Certains systèmes sont en panne",
    degradedPerf: "◔ Performances dégradées",
    down: "✗ Tous les systèmes sont en panne",
    unknown: "… Pas encore de vérification",
    maintenance: "⚒ Maintenance en cours",
    states: {
      operational: "✓ Opérationnel",
      degraded: "◔ Dégradé",
      down: "✗ En panne",
      maintenance: "⚒ Maintenance",
      unknown: "… Inconnu",
    },
    incidentStates: {
      investigating: "Analyse en cours",
      identified: "Cause identifiée",
      monitoring: "Sous surveillance",
      resolved: "Résolu",
    },
    activeIncidents: "Incidents en cours",
    recentIncidents: "Incidents récents",
    noIncidents: `Aucun incident ces ${BAR_DAYS} derniers jours.`,
    history: "Historique des incidents",
    maintenanceTitle: "Maintenance",
    inProgress: "En cours",
    upcoming: "À venir",
    uptime30: "disponibilité (30 jours)",
    noData: "pas de données",
    daysAgo: (n) => `il y a ${n} jours`,
    today: "aujourd’hui",
    responseTime: "Temps de réponse",
    subscribe: "S’abonner aux mises à jour",
    subscribeHint: "Nous envoyons d’abord une confirmation ; chaque e-mail contient un lien de désabonnement.",
    email: "Adresse e-mail",
    lastUpdated: "Dernière mise à jour",
    postmortem: "Post-mortem",
    password: "Mot de passe",
    enter: "Afficher la page",
  },
  es: {
    ...EN,
    operational: "✓ Todos los sistemas operativos",
    degradedSome: "! Algunos sistemas están caídos",
    degradedPerf: "◔ Rendimiento degradado",
    down: "✗ Todos los sistemas están caídos",
    unknown: "… Aún sin comprobaciones",
    maintenance: "⚒ En mantenimiento",
    states: {
      operational: "✓ Operativo",
      degraded: "◔ Degradado",
      down: "✗ Caído",
      maintenance: "⚒ Mantenimiento",
      unknown: "… Desconocido",
    },
    incidentStates: {
      investigating: "Investigando",
      identified: "Identificado",
      monitoring: "En observación",
      resolved: "Resuelto",
    },
    activeIncidents: "Incidentes activos",
    recentIncidents: "Incidentes recientes",
    noIncidents: `Sin incidentes en los últimos ${BAR_DAYS} días.`,
    history: "Historial de incidentes",
    maintenanceTitle: "Mantenimiento",
    inProgress: "En curso",
    upcoming: "Próximo",
    uptime30: "disponibilidad (30 días)",
    noData: "sin datos",
    daysAgo: (n) => `hace ${n} días`,
    today: "hoy",
    responseTime: "Tiempo de respuesta",
    subscribe: "Suscribirse a las novedades",
    subscribeHint: "Primero enviamos una confirmación; cada correo incluye un enlace para darse de baja.",
    email: "Correo electrónico",
    lastUpdated: "Última actualización",
    postmortem: "Análisis posterior",
    password: "Contraseña",
    enter: "Mostrar la página",
  },
  ja: {
    ...EN,
    operational: "✓ すべてのシステムが正常に稼働中",
    degradedSome: "! 一部のシステムが停止中",
    degradedPerf: "◔ パフォーマンス低下",
    down: "✗ すべてのシステムが停止中",
    unknown: "… まだチェックがありません",
    maintenance: "⚒ メンテナンス中",
    states: {
      operational: "✓ 正常",
      degraded: "◔ 低下",
      down: "✗ 停止",
      maintenance: "⚒ メンテナンス",
      unknown: "… 不明",
    },
    incidentStates: { investigating: "調査中", identified: "原因特定", monitoring: "経過観察中", resolved: "解決済み" },
    activeIncidents: "発生中の障害",
    recentIncidents: "最近の障害",
    noIncidents: `過去${BAR_DAYS}日間に障害はありません。`,
    history: "障害履歴",
    maintenanceTitle: "メンテナンス",
    inProgress: "実施中",
    upcoming: "予定",
    uptime30: "稼働率（30日間）",
    noData: "データなし",
    daysAgo: (n) => `${n}日前`,
    today: "今日",
    responseTime: "応答時間",
    subscribe: "更新を購読",
    subscribeHint: "まず確認メールを送ります。すべてのメールに購読解除リンクがあります。",
    email: "メールアドレス",
    lastUpdated: "最終更新",
    postmortem: "事後分析",
    password: "パスワード",
    enter: "ページを表示",
  },
};

/** The words of a page in its locale. */
export const wordsOf = (locale: StatusPageLocale): PageWords => WORDS[locale];
