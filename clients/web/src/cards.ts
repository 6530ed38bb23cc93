/**
 * Card faces drawn in SVG, no images: the German (Bavarian) pattern, with acorns, leaves,
 * hearts and bells and Ober/Unter, and the French pattern, with clubs, spades, hearts and
 * diamonds and Queen/Jack. A card code is rank then suit ("QC", "TD"); the suit letters are the
 * same in both patterns (C = Eichel/clubs, S = Gras/spades, H = Herz/hearts, D = Schellen/
 * diamonds), so either face can show any game's cards. Which pattern the reader sees is the
 * page's choice (remembered on the device), the game's own pattern by default.
 */
export type Pattern = "german" | "french";

/** Each suit's symbol in a 20x20 box centred on 0,0, with its fill and outline. */
const SUITS: Record<Pattern, Record<string, { d: string; fill: string; stroke?: string; extra?: string }>> = {
  french: {
    H: { d: "M0 8C-10 0-9-8-4.5-8-2-8 0-6 0-4.5 0-6 2-8 4.5-8 9-8 10 0 0 8Z", fill: "#c8102e" },
    D: { d: "M0-9L6.5 0 0 9-6.5 0Z", fill: "#c8102e" },
    S: { d: "M0-9C-10-1-9 5-4.5 5-2.5 5-1.3 4-.8 3L-2.5 9H2.5L.8 3C1.3 4 2.5 5 4.5 5 9 5 10-1 0-9Z", fill: "#111" },
    C: {
      d: "M0-9A4.2 4.2 0 1 0 0-.6 4.2 4.2 0 1 0 0-9ZM-4.3-3.6A4.2 4.2 0 1 0-4.3 4.8 4.2 4.2 0 1 0-4.3-3.6ZM4.3-3.6A4.2 4.2 0 1 0 4.3 4.8 4.2 4.2 0 1 0 4.3-3.6ZM-1 1L-2.6 9H2.6L1 1Z",
      fill: "#111",
    },
  },
  german: {
    // Herz: a heart; Schellen: a bell with its band and slit; Eichel: an acorn in its cup;
    // Gras: a leaf with its stalk and midrib
    H: { d: "M0 8C-10 0-9-8-4.5-8-2-8 0-6 0-4.5 0-6 2-8 4.5-8 9-8 10 0 0 8Z", fill: "#c8102e" },
    D: {
      d: "M0-8A8 8 0 1 0 0 8 8 8 0 1 0 0-8Z", fill: "#e0a800", stroke: "#6b4400",
      extra: '<path d="M-7.6-2.2H7.6M-7.6 1H7.6" stroke="#6b4400" stroke-width="1.2" fill="none"/><path d="M0 3.6V7.6" stroke="#6b4400" stroke-width="1.6"/><circle cx="0" cy="3.4" r="1.5" fill="#6b4400"/>',
    },
    C: {
      d: "M-4.8-1.5C-5.5 5 -2.5 9 0 9S5.5 5 4.8-1.5Z", fill: "#a0622a", stroke: "#4a2a08",
      extra: '<path d="M-6-1.5C-6-6-3-8 0-8S6-6 6-1.5Z" fill="#5a3a12" stroke="#2e1a04" stroke-width=".8"/><path d="M0-8V-10.5" stroke="#2e1a04" stroke-width="1.4"/>',
    },
    S: {
      d: "M0-10C-7-5-7 3 0 8 7 3 7-5 0-10Z", fill: "#2e7d32", stroke: "#12401a",
      extra: '<path d="M0-9V10" stroke="#12401a" stroke-width="1.1" fill="none"/><path d="M0-3L-3.5-6M0-3L3.5-6M0 2L-3.5-1M0 2L3.5-1" stroke="#12401a" stroke-width=".7" fill="none"/>',
    },
  },
};

const RANKS: Record<Pattern, Record<string, string>> = {
  german: { A: "A", K: "K", Q: "O", J: "U", T: "10", "9": "9", "8": "8", "7": "7" },
  french: { A: "A", K: "K", Q: "Q", J: "J", T: "10", "9": "9", "8": "8", "7": "7" },
};

/** The ink of a suit's index: red suits red, the German leaf green, the rest dark. */
function ink(pattern: Pattern, suit: string): string {
  if (suit === "H" || (suit === "D" && pattern === "french")) return "#b0001e";
  if (pattern === "german" && suit === "S") return "#1b5e20";
  if (pattern === "german" && (suit === "D" || suit === "C")) return "#5a3a00";
  return "#111";
}

function symbol(pattern: Pattern, suit: string, x: number, y: number, scale: number): string {
  const s = SUITS[pattern][suit];
  if (!s) return "";
  const stroke = s.stroke ? ` stroke="${s.stroke}" stroke-width="1"` : "";
  return `<g transform="translate(${x} ${y}) scale(${scale})"><path d="${s.d}" fill="${s.fill}"${stroke}/>${s.extra ?? ""}</g>`;
}

/** Where the pips of a number card sit on the 60x90 face. */
const PIPS: Record<string, [number, number][]> = {
  "7": [[20, 24], [40, 24], [30, 37], [20, 50], [40, 50], [20, 66], [40, 66]],
  "8": [[20, 24], [40, 24], [30, 36], [20, 48], [40, 48], [30, 60], [20, 70], [40, 70]],
  "9": [[20, 22], [40, 22], [20, 38], [40, 38], [30, 46], [20, 54], [40, 54], [20, 70], [40, 70]],
  T: [[20, 20], [40, 20], [30, 29], [20, 38], [40, 38], [20, 52], [40, 52], [30, 61], [20, 70], [40, 70]],
};

/** The face of a card as SVG markup, 60x90 units; "??" (a card not seen) is the back. */
export function cardSvg(code: string, pattern: Pattern): string {
  const open = '<svg viewBox="0 0 60 90" xmlns="http://www.w3.org/2000/svg" aria-hidden="true" focusable="false" direction="ltr">';
  if (code.length !== 2 || code === "??") {
    return `${open}<rect x="1" y="1" width="58" height="88" rx="5" fill="#1d3f8f" stroke="#0a1f4d"/><path d="M8 8H52V82H8Z" fill="none" stroke="#9fb4e8" stroke-width="1.5"/><path d="M8 8L52 82M52 8L8 82" stroke="#9fb4e8" stroke-width=".8"/></svg>`;
  }
  const [rank, suit] = [code[0], code[1]];
  const label = RANKS[pattern][rank] ?? rank;
  const color = ink(pattern, suit);
  const parts = [
    `<rect x="1" y="1" width="58" height="88" rx="5" fill="#fffdf6" stroke="#555"/>`,
    `<text x="6" y="15" font-size="13" font-weight="700" fill="${color}" font-family="system-ui,sans-serif">${label}</text>`,
    symbol(pattern, suit, 11, 24, 0.45),
    `<g transform="rotate(180 30 45)"><text x="6" y="15" font-size="13" font-weight="700" fill="${color}" font-family="system-ui,sans-serif">${label}</text>${symbol(pattern, suit, 11, 24, 0.45)}</g>`,
  ];
  const pips = PIPS[rank];
  if (pips) {
    for (const [x, y] of pips) parts.push(symbol(pattern, suit, x, y, 0.5));
  } else if (rank === "A") {
    parts.push(symbol(pattern, suit, 30, 45, 1.5));
  } else {
    // a court card: a framed figure panel with the rank's letter and its suit
    const band = pattern === "german" ? (rank === "Q" ? "#f2d27a" : rank === "J" ? "#b9d7f0" : "#e8b7b7") : "#f0e2c0";
    parts.push(
      `<rect x="14" y="20" width="32" height="50" rx="3" fill="${band}" stroke="${color}" stroke-width="1"/>`,
      `<text x="30" y="52" font-size="22" font-weight="700" text-anchor="middle" fill="${color}" font-family="Georgia,serif">${label}</text>`,
      symbol(pattern, suit, 30, 29, 0.5),
      symbol(pattern, suit, 30, 62, 0.5),
    );
  }
  return `${open}${parts.join("")}</svg>`;
}
