/**
 * The page's own words (everything that is not a game's word: those come from ListGames, see
 * @stich/client's GameWords) as message catalogues, one per language. English is complete and
 * the fallback key by key; Urdu is laid out right to left. The language follows the browser
 * until the reader picks one, which is remembered on the device (localStorage "stich:lang").
 */
export type Lang = "en" | "de" | "nl" | "ur";
export const LANGS: Record<Lang, { name: string; dir: "ltr" | "rtl" }> = {
  en: { name: "English", dir: "ltr" },
  de: { name: "Deutsch", dir: "ltr" },
  nl: { name: "Nederlands", dir: "ltr" },
  ur: { name: "اردو", dir: "rtl" },
};

const en = {
  wins_you: "You win {n}",
  loses_you: "You lose {n}",
  even_you: "You neither win nor lose",
  title: "stich: a card table",
  loading: "Loading…",
  language: "Language",
  cards_pattern: "Card faces",
  pattern_game: "as the game has them",
  pattern_german: "German (Bavarian)",
  pattern_french: "French",
  create_title: "Play a game",
  game: "Game",
  opponents: "Computer players",
  bot_easy: "easy",
  bot_normal: "normal",
  bot_hard: "hard",
  bot_pace: "Computer players' pace",
  pace_quick: "quick",
  pace_calm: "calm (you see each card)",
  deals_in_match: "Deals in the match",
  seed: "Seed (the same seed deals the same cards; empty: random)",
  hints_on: "Hints at this table",
  practise_daily: "Practise yesterday's daily deal",
  seat_n: "Seat {n}",
  seat_you: "You",
  seat_kind_you: "you",
  seat_kind_open: "open: invite a friend",
  seat_kind_bot_easy: "computer (easy)",
  seat_kind_bot_normal: "computer (normal)",
  seat_kind_bot_hard: "computer (hard)",
  kind_human: "player",
  kind_open: "open seat",
  kind_bot: "computer",
  create: "Start the game",
  more_options: "More options",
  rules: "Rules",
  rules_note: "Changing a rule starts a new game with it; your choice is kept on this device.",
  rules_preset: "Rule set",
  rules_standard: "the game's standard rules",
  rules_own: "your own choice (below)",
  daily_title: "Today's daily deal",
  daily_text: "One deal, the same cards and the same computer players for everyone; the engine scores it for the leaderboard.",
  daily_play: "Play today's deal",
  leaderboard: "Leaderboard: {game}, {date}",
  leaderboard_players: "{n} players",
  leaderboard_players_one: "1 player",
  nobody_yet: "Nobody has played it yet today.",
  rank: "Rank",
  player: "Player",
  score: "Score",
  nickname: "Nickname",
  enter_score: "Enter my score",
  entered: "Entered: {score} points, rank {rank}.",
  leaderboard_unavailable: "The leaderboard is not available: {why}",
  deal_of: "Deal {n} of {m}",
  deal_to_target: "Deal {n}, first to {m} points",
  waiting_first_deal: "Waiting for the first deal",
  watching: "watching",
  deal: "Deal the cards",
  next_deal: "Deal the next hand",
  play_again: "Play again",
  your_turn: "Your turn.",
  thinking: "{seat} is thinking…",
  waiting_for: "Waiting for {seat}.",
  dealer: "dealer",
  tricks: "{n} tricks",
  tricks_one: "1 trick",
  points: "{n} points",
  partner: "with you",
  opponent: "against you",
  side_unknown: "side not known yet",
  trick: "The trick",
  last_trick: "Last trick",
  show_last_trick: "Show the last trick",
  hide_last_trick: "Hide the last trick",
  won_by: "won by {seat}",
  no_trick_yet: "No card played yet.",
  contract: "Contract",
  no_contract: "No contract yet.",
  auction: "What was said",
  nothing_said: "Nothing said yet.",
  your_hand: "Your hand",
  your_call: "Your decision",
  out_of_turn: "You may announce now, before your turn",
  legal_hint: "Cards you may play are raised and outlined.",
  choose_cards: "Tap {n} cards, then confirm.",
  chosen: "{k} of {n} chosen",
  confirm: "Confirm: {what}",
  face_up: "Face up, {seat}: {cards}",
  hint: "Hint",
  hint_thinking: "thinking…",
  hint_moved: "The table moved on: ask again.",
  hint_line: "{action}: {points} points expected, {win}% to win",
  no_hint: "No hint: {why}",
  result_title: "Deal {n}: the score",
  item: "Item",
  value: "Value",
  times: "× {n}",
  factor: "factor {n}",
  for_side: "side {n}",
  card_points: "Card points",
  this_deal: "This deal",
  match_total: "Match total",
  wins: "{seat} wins {n}",
  loses: "{seat} loses {n}",
  even: "{seat}: no gain, no loss",
  match_summary: "The match",
  match_over: "The match is over.",
  match_winner: "{seat} finished first with {n}.",
  deals_played: "{n} of {m} deals played.",
  deals_played_target: "{n} deals played; the first side to {m} points wins.",
  invite: "Invite friends",
  spectators: "Spectators:",
  copy: "Copy",
  copied: "Copied.",
  stream_lost: "The connection to the table was lost; reconnecting…",
  choose_one_seat: "Choose exactly one seat for yourself.",
  why_not: "{card} cannot be played now: {why}",
  // refusals the page may meet, in words (anything else: the server's own sentence)
  reason_NOT_YOUR_TURN: "It is another player's turn.",
  reason_STALE_VERSION: "The table moved on meanwhile; look again.",
  reason_MUST_FOLLOW_SUIT: "You must follow the suit that was led (trumps count as one suit).",
  reason_INVITE_USED: "This invitation has been used already.",
  reason_TABLE_NOT_FOUND: "This table does not exist (any more).",
  reason_UNAVAILABLE: "The server cannot be reached.",
};
export type Key = keyof typeof en;
type Catalogue = Partial<Record<Key, string>>;

const de: Catalogue = {
  wins_you: "Du gewinnst {n}", loses_you: "Du verlierst {n}", even_you: "Du gewinnst und verlierst nichts",
  title: "stich: ein Kartentisch", loading: "Lädt…", language: "Sprache", cards_pattern: "Kartenbild",
  pattern_game: "wie im Spiel üblich", pattern_german: "Deutsch (bayerisch)", pattern_french: "Französisch", create_title: "Ein Spiel spielen", game: "Spiel", opponents: "Computerspieler",
  bot_easy: "leicht", bot_normal: "normal", bot_hard: "schwer", bot_pace: "Tempo der Computerspieler",
  pace_quick: "schnell", pace_calm: "ruhig (jede Karte sichtbar)", deals_in_match: "Spiele in der Runde",
  seed: "Startwert (gleicher Wert, gleiche Karten; leer: zufällig)", hints_on: "Tipps an diesem Tisch",
  practise_daily: "Das gestrige Tagesspiel üben", seat_n: "Platz {n}", seat_you: "Du", seat_kind_you: "du",
  seat_kind_open: "offen: Freund einladen", seat_kind_bot_easy: "Computer (leicht)", seat_kind_bot_normal: "Computer (normal)",
  seat_kind_bot_hard: "Computer (schwer)", kind_human: "Spieler", kind_open: "offener Platz", kind_bot: "Computer",
  create: "Spiel starten", more_options: "Weitere Einstellungen", rules: "Regeln",
  rules_note: "Eine Regeländerung startet ein neues Spiel damit; die Wahl bleibt auf diesem Gerät gespeichert.", rules_preset: "Regelwerk", rules_standard: "die Standardregeln des Spiels", rules_own: "eigene Wahl (unten)", daily_title: "Das heutige Tagesspiel",
  daily_text: "Ein Spiel, dieselben Karten und dieselben Computerspieler für alle; die Engine wertet es für die Bestenliste.",
  daily_play: "Heutiges Spiel spielen", leaderboard: "Bestenliste: {game}, {date}", leaderboard_players: "{n} Spieler", leaderboard_players_one: "1 Spieler",
  nobody_yet: "Heute hat es noch niemand gespielt.", rank: "Rang", player: "Spieler", score: "Punkte", nickname: "Spitzname",
  enter_score: "Meine Punkte eintragen", entered: "Eingetragen: {score} Punkte, Rang {rank}.",
  leaderboard_unavailable: "Die Bestenliste ist nicht verfügbar: {why}", deal_of: "Spiel {n} von {m}", deal_to_target: "Spiel {n}, bis {m} Punkte",
  waiting_first_deal: "Warten auf das erste Geben", watching: "Zuschauer", deal: "Karten geben", next_deal: "Nächstes Spiel geben", play_again: "Noch einmal spielen",
  your_turn: "Du bist dran.", thinking: "{seat} überlegt…", waiting_for: "Warten auf {seat}.",
  dealer: "gibt", tricks: "{n} Stiche", tricks_one: "1 Stich", points: "{n} Augen", partner: "mit dir", opponent: "gegen dich",
  side_unknown: "Partei noch unbekannt", trick: "Der Stich", last_trick: "Letzter Stich", show_last_trick: "Letzten Stich zeigen",
  hide_last_trick: "Letzten Stich verbergen", won_by: "gewonnen von {seat}", no_trick_yet: "Noch keine Karte gespielt.",
  contract: "Spiel", no_contract: "Noch kein Spiel angesagt.", auction: "Was gesagt wurde", nothing_said: "Noch nichts gesagt.",
  your_hand: "Deine Karten", your_call: "Deine Entscheidung", out_of_turn: "Du darfst jetzt ansagen, vor deinem Zug", legal_hint: "Spielbare Karten sind angehoben und umrandet.",
  choose_cards: "Tippe {n} Karten an, dann bestätigen.", chosen: "{k} von {n} gewählt", confirm: "Bestätigen: {what}", face_up: "Offen, {seat}: {cards}", hint: "Tipp", hint_thinking: "überlegt…",
  hint_moved: "Das Spiel ging weiter: bitte neu fragen.", hint_line: "{action}: {points} Punkte erwartet, {win}% Gewinnchance",
  no_hint: "Kein Tipp: {why}", result_title: "Spiel {n}: die Abrechnung", item: "Posten", value: "Wert", times: "× {n}",
  factor: "Faktor {n}", for_side: "Partei {n}", card_points: "Augen", this_deal: "Dieses Spiel", match_total: "Gesamt",
  wins: "{seat} gewinnt {n}", loses: "{seat} verliert {n}", even: "{seat}: weder Gewinn noch Verlust", match_summary: "Die Runde",
  match_over: "Die Runde ist vorbei.", match_winner: "{seat} liegt vorn mit {n}.", deals_played: "{n} von {m} Spielen gespielt.", deals_played_target: "{n} Spiele gespielt; wer zuerst {m} Punkte hat, gewinnt.",
  invite: "Freunde einladen", spectators: "Zuschauer:", copy: "Kopieren", copied: "Kopiert.",
  stream_lost: "Die Verbindung zum Tisch ist abgerissen; verbinde neu…", choose_one_seat: "Wähle genau einen Platz für dich.",
  why_not: "{card} geht jetzt nicht: {why}", reason_NOT_YOUR_TURN: "Ein anderer Spieler ist dran.",
  reason_STALE_VERSION: "Das Spiel ging inzwischen weiter; schau noch einmal.",
  reason_MUST_FOLLOW_SUIT: "Du musst die ausgespielte Farbe bedienen (Trumpf zählt als eine Farbe).",
  reason_INVITE_USED: "Diese Einladung wurde schon benutzt.", reason_TABLE_NOT_FOUND: "Diesen Tisch gibt es nicht (mehr).",
  reason_UNAVAILABLE: "Der Server ist nicht erreichbar.",
};

const nl: Catalogue = {
  wins_you: "Jij wint {n}", loses_you: "Jij verliest {n}", even_you: "Jij wint noch verliest",
  title: "stich: een kaarttafel", loading: "Laden…", language: "Taal", cards_pattern: "Kaartbeeld",
  pattern_game: "zoals het spel ze heeft", pattern_german: "Duits (Beiers)", pattern_french: "Frans", create_title: "Een spel spelen", game: "Spel", opponents: "Computerspelers",
  bot_easy: "makkelijk", bot_normal: "normaal", bot_hard: "moeilijk", bot_pace: "Tempo van de computerspelers",
  pace_quick: "snel", pace_calm: "rustig (je ziet elke kaart)", deals_in_match: "Potjes in de partij",
  seed: "Startgetal (zelfde getal, zelfde kaarten; leeg: willekeurig)", hints_on: "Tips aan deze tafel",
  practise_daily: "Het dagspel van gisteren oefenen", seat_n: "Plaats {n}", seat_you: "Jij", seat_kind_you: "jij",
  seat_kind_open: "open: nodig een vriend uit", seat_kind_bot_easy: "computer (makkelijk)", seat_kind_bot_normal: "computer (normaal)",
  seat_kind_bot_hard: "computer (moeilijk)", kind_human: "speler", kind_open: "open plaats", kind_bot: "computer",
  create: "Start het spel", more_options: "Meer opties", rules: "Regels",
  rules_note: "Een andere regel start een nieuw spel; je keuze wordt op dit apparaat bewaard.",
  rules_preset: "Spelregels", rules_standard: "de standaardregels van het spel", rules_own: "eigen keuze (hieronder)",
  daily_title: "Het dagspel van vandaag",
  daily_text: "Eén potje, dezelfde kaarten en dezelfde computerspelers voor iedereen; de engine telt de score voor de ranglijst.",
  daily_play: "Speel het potje van vandaag", leaderboard: "Ranglijst: {game}, {date}", leaderboard_players: "{n} spelers", leaderboard_players_one: "1 speler",
  nobody_yet: "Nog niemand heeft het vandaag gespeeld.", rank: "Plaats", player: "Speler", score: "Score", nickname: "Bijnaam",
  enter_score: "Mijn score invoeren", entered: "Ingevoerd: {score} punten, plaats {rank}.",
  leaderboard_unavailable: "De ranglijst is niet beschikbaar: {why}", deal_of: "Potje {n} van {m}", deal_to_target: "Potje {n}, tot {m} punten",
  waiting_first_deal: "Wachten op het eerste potje", watching: "toeschouwer", deal: "Kaarten delen", next_deal: "Volgend potje delen", play_again: "Nog een keer spelen",
  your_turn: "Jij bent aan de beurt.", thinking: "{seat} denkt na…", waiting_for: "Wachten op {seat}.",
  dealer: "deelt", tricks: "{n} slagen", tricks_one: "1 slag", points: "{n} punten", partner: "met jou", opponent: "tegen jou",
  side_unknown: "kant nog onbekend", trick: "De slag", last_trick: "Laatste slag", show_last_trick: "Laatste slag tonen",
  hide_last_trick: "Laatste slag verbergen", won_by: "gewonnen door {seat}", no_trick_yet: "Nog geen kaart gespeeld.",
  contract: "Spel", no_contract: "Nog geen spel.", auction: "Wat er gezegd is", nothing_said: "Nog niets gezegd.",
  your_hand: "Jouw kaarten", your_call: "Jouw beslissing", out_of_turn: "Je mag nu al aankondigen, voor je beurt", legal_hint: "Kaarten die je mag spelen zijn opgetild en omlijnd.",
  choose_cards: "Tik {n} kaarten aan en bevestig.", chosen: "{k} van {n} gekozen", confirm: "Bevestigen: {what}", face_up: "Open, {seat}: {cards}", hint: "Tip", hint_thinking: "denkt na…",
  hint_moved: "Het spel ging verder: vraag opnieuw.", hint_line: "{action}: {points} punten verwacht, {win}% kans op winst",
  no_hint: "Geen tip: {why}", result_title: "Potje {n}: de telling", item: "Post", value: "Waarde", times: "× {n}",
  factor: "factor {n}", for_side: "kant {n}", card_points: "Kaartpunten", this_deal: "Dit potje", match_total: "Totaal",
  wins: "{seat} wint {n}", loses: "{seat} verliest {n}", even: "{seat}: geen winst, geen verlies", match_summary: "De partij",
  match_over: "De partij is voorbij.", match_winner: "{seat} staat eerst met {n}.", deals_played: "{n} van {m} potjes gespeeld.", deals_played_target: "{n} potjes gespeeld; wie het eerst {m} punten heeft, wint.",
  invite: "Vrienden uitnodigen", spectators: "Toeschouwers:", copy: "Kopiëren", copied: "Gekopieerd.",
  stream_lost: "De verbinding met de tafel is verbroken; opnieuw verbinden…", choose_one_seat: "Kies precies één plaats voor jezelf.",
  why_not: "{card} kan nu niet: {why}", reason_NOT_YOUR_TURN: "Een andere speler is aan de beurt.",
  reason_STALE_VERSION: "Het spel ging intussen verder; kijk opnieuw.",
  reason_MUST_FOLLOW_SUIT: "Je moet de gevraagde kleur bekennen (troef telt als één kleur).",
  reason_INVITE_USED: "Deze uitnodiging is al gebruikt.", reason_TABLE_NOT_FOUND: "Deze tafel bestaat niet (meer).",
  reason_UNAVAILABLE: "De server is niet bereikbaar.",
};

const ur: Catalogue = {
  wins_you: "آپ نے {n} جیتے", loses_you: "آپ نے {n} ہارے", even_you: "آپ کا نہ نفع نہ نقصان",
  title: "stich: تاش کی میز", loading: "لوڈ ہو رہا ہے…", language: "زبان", cards_pattern: "پتوں کی شکل",
  pattern_game: "جیسے کھیل میں ہیں", pattern_german: "جرمن (باویرین)", pattern_french: "فرانسیسی", create_title: "کھیل شروع کریں", game: "کھیل", opponents: "کمپیوٹر کھلاڑی",
  bot_easy: "آسان", bot_normal: "عام", bot_hard: "مشکل", bot_pace: "کمپیوٹر کھلاڑیوں کی رفتار",
  pace_quick: "تیز", pace_calm: "آہستہ (ہر پتا نظر آئے)", deals_in_match: "مقابلے میں بازیاں",
  seed: "بیج (ایک ہی بیج، ایک ہی پتے؛ خالی: اتفاقی)", hints_on: "اس میز پر مشورے",
  practise_daily: "کل کی روزانہ بازی کی مشق", seat_n: "نشست {n}", seat_you: "آپ", seat_kind_you: "آپ",
  seat_kind_open: "خالی: دوست کو بلائیں", seat_kind_bot_easy: "کمپیوٹر (آسان)", seat_kind_bot_normal: "کمپیوٹر (عام)",
  seat_kind_bot_hard: "کمپیوٹر (مشکل)", kind_human: "کھلاڑی", kind_open: "خالی نشست", kind_bot: "کمپیوٹر",
  create: "کھیل شروع کریں", more_options: "مزید اختیارات", rules: "قواعد",
  rules_note: "قاعدہ بدلنے سے اس کے ساتھ نیا کھیل شروع ہوتا ہے؛ آپ کی پسند اس آلے پر محفوظ رہتی ہے۔", rules_preset: "قواعد کا مجموعہ", rules_standard: "کھیل کے معیاری قواعد", rules_own: "آپ کی اپنی پسند (نیچے)", daily_title: "آج کی روزانہ بازی",
  daily_text: "ایک بازی، سب کے لیے وہی پتے اور وہی کمپیوٹر کھلاڑی؛ انجن اسے درجہ بندی کے لیے گنتا ہے۔",
  daily_play: "آج کی بازی کھیلیں", leaderboard: "درجہ بندی: {game}، {date}", leaderboard_players: "{n} کھلاڑی", leaderboard_players_one: "1 کھلاڑی",
  nobody_yet: "آج ابھی تک کسی نے نہیں کھیلا۔", rank: "درجہ", player: "کھلاڑی", score: "اسکور", nickname: "عرفی نام",
  enter_score: "میرا اسکور درج کریں", entered: "درج ہو گیا: {score} پوائنٹ، درجہ {rank}۔",
  leaderboard_unavailable: "درجہ بندی دستیاب نہیں: {why}", deal_of: "بازی {n} از {m}", deal_to_target: "بازی {n}، {m} پوائنٹ تک",
  waiting_first_deal: "پہلی بازی کا انتظار", watching: "ناظر", deal: "پتے بانٹیں", next_deal: "اگلی بازی بانٹیں", play_again: "دوبارہ کھیلیں",
  your_turn: "آپ کی باری ہے۔", thinking: "{seat} سوچ رہا ہے…", waiting_for: "{seat} کا انتظار۔",
  dealer: "بانٹنے والا", tricks: "{n} ہاتھ", tricks_one: "1 ہاتھ", points: "{n} پوائنٹ", partner: "آپ کے ساتھ", opponent: "آپ کے خلاف",
  side_unknown: "فریق ابھی معلوم نہیں", trick: "موجودہ ہاتھ", last_trick: "پچھلا ہاتھ", show_last_trick: "پچھلا ہاتھ دکھائیں",
  hide_last_trick: "پچھلا ہاتھ چھپائیں", won_by: "{seat} نے جیتا", no_trick_yet: "ابھی کوئی پتا نہیں کھیلا گیا۔",
  contract: "معاہدہ", no_contract: "ابھی کوئی معاہدہ نہیں۔", auction: "کیا کہا گیا", nothing_said: "ابھی کچھ نہیں کہا گیا۔",
  your_hand: "آپ کے پتے", your_call: "آپ کا فیصلہ", out_of_turn: "آپ اپنی باری سے پہلے ابھی اعلان کر سکتے ہیں", legal_hint: "جو پتے آپ کھیل سکتے ہیں وہ اوپر اٹھے اور نمایاں ہیں۔",
  choose_cards: "{n} پتے چنیں، پھر تصدیق کریں۔", chosen: "{n} میں سے {k} چنے گئے", confirm: "تصدیق: {what}", face_up: "کھلے پتے، {seat}: {cards}", hint: "مشورہ",
  hint_thinking: "سوچ رہا ہے…", hint_moved: "کھیل آگے بڑھ گیا: دوبارہ پوچھیں۔",
  hint_line: "{action}: متوقع {points} پوائنٹ، جیت کا امکان {win}%", no_hint: "کوئی مشورہ نہیں: {why}",
  result_title: "بازی {n}: حساب", item: "مد", value: "قدر", times: "× {n}", factor: "ضرب {n}", for_side: "فریق {n}",
  card_points: "پتوں کے پوائنٹ", this_deal: "یہ بازی", match_total: "کل", wins: "{seat} نے {n} جیتے",
  loses: "{seat} نے {n} ہارے", even: "{seat}: نہ نفع نہ نقصان", match_summary: "مقابلہ", match_over: "مقابلہ ختم ہو گیا۔",
  match_winner: "{seat} {n} کے ساتھ پہلے نمبر پر رہا۔", deals_played: "{m} میں سے {n} بازیاں کھیلی گئیں۔", deals_played_target: "{n} بازیاں کھیلی گئیں؛ جو فریق پہلے {m} پوائنٹ تک پہنچے، جیتے گا۔",
  invite: "دوستوں کو بلائیں", spectators: "ناظرین:", copy: "نقل کریں", copied: "نقل ہو گیا۔",
  stream_lost: "میز سے رابطہ ٹوٹ گیا؛ دوبارہ جڑ رہے ہیں…", choose_one_seat: "اپنے لیے صرف ایک نشست چنیں۔",
  why_not: "{card} ابھی نہیں کھیلا جا سکتا: {why}", reason_NOT_YOUR_TURN: "کسی اور کھلاڑی کی باری ہے۔",
  reason_STALE_VERSION: "اس دوران کھیل آگے بڑھ گیا؛ دوبارہ دیکھیں۔",
  reason_MUST_FOLLOW_SUIT: "آپ کو وہی رنگ کھیلنا ہوگا جو پہلے کھیلا گیا (ترپ ایک رنگ شمار ہوتا ہے)۔",
  reason_INVITE_USED: "یہ دعوت پہلے ہی استعمال ہو چکی ہے۔", reason_TABLE_NOT_FOUND: "یہ میز موجود نہیں (رہی)۔",
  reason_UNAVAILABLE: "سرور تک رسائی نہیں ہو رہی۔",
};

const CATALOGUES: Record<Lang, Catalogue> = { en, de, nl, ur };

function detect(): Lang {
  const kept = localStorage.getItem("stich:lang");
  if (kept && kept in LANGS) return kept as Lang;
  for (const l of navigator.languages ?? [navigator.language]) {
    const short = l.slice(0, 2).toLowerCase();
    if (short in LANGS) return short as Lang;
  }
  return "en";
}

export let lang: Lang = detect();

/** Pick a language (remembered on the device) and set the document's lang and direction. */
export function setLang(l: Lang, remember = true): void {
  lang = l;
  if (remember) localStorage.setItem("stich:lang", l);
  document.documentElement.lang = l;
  document.documentElement.dir = LANGS[l].dir;
}

/** A message of the page in the reader's language, its {placeholders} filled in. */
export function t(key: Key, vars: Record<string, string | number> = {}): string {
  const text = CATALOGUES[lang][key] ?? en[key];
  return text.replace(/\{(\w+)\}/g, (_, k: string) => (k in vars ? String(vars[k]) : `{${k}}`));
}

/** A refusal's reason in words where the catalogue has them, else the server's sentence. */
export function reasonText(reason: string, serverMessage: string): string {
  const key = `reason_${reason}` as Key;
  return key in en ? t(key) : serverMessage;
}

/** A number in the reader's language (Urdu digits stay Western: they are what scores show). */
export function num(n: number): string {
  // isolated left to right, so a minus sign stays in front in a right-to-left line
  return `\u2066${n.toLocaleString(lang === "ur" ? "en" : lang)}\u2069`;
}

export const KEYS = Object.keys(en) as Key[];
export { CATALOGUES };
