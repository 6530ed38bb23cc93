/**
 * A game's words as ListGames serves them (GameInfo.words, by language; the format is in
 * docs/adding-a-game.md, "Words"), and the one renderer of them: cards, calls in their three
 * forms, the contract walked field by field, breakdown items, phases and teams. A client that
 * renders with it shows a new game's words without a new release; it never names a game.
 * Missing words fall back to English, then to the engine's names.
 */
import type { JsonObject, JsonValue } from "@bufbuild/protobuf";

/** The three forms of a call: a button or list ("no 90"), after a seat ("announces no 90"),
 *  after "you" and as an imperative ("announce no 90"). */
export type CallForm = "name" | "said" | "you";

/** The fields a call template can fill: an Action, or part of one. */
export interface CallLike {
  type: string;
  call: string;
  suit?: string;
  cards?: string[];
}

const PLACEHOLDER = /\{(\w+)(?::(\w+))?\}/g;

function raw(name: string): string {
  return name.replace(/_/g, " ");
}

export class GameWords {
  private readonly chain: JsonObject[];

  /** `byLanguage`: GameInfo.words; `language`: the reader's, English where it has no word. */
  constructor(byLanguage: JsonObject | undefined, language = "en") {
    const pick = (l: string) => byLanguage?.[l];
    this.chain = [pick(language), pick("en")].filter((w): w is JsonObject => !!w && typeof w === "object" && !Array.isArray(w));
  }

  /** The word at a path, in the reader's language first. */
  get(...path: string[]): JsonValue | undefined {
    for (const words of this.chain) {
      let node: JsonValue | undefined = words;
      for (const key of path) {
        node = node && typeof node === "object" && !Array.isArray(node) ? (node as JsonObject)[key] : undefined;
      }
      if (node !== undefined && node !== null) return node;
    }
    return undefined;
  }

  private text(...path: string[]): string | undefined {
    const found = this.get(...path);
    return typeof found === "string" ? found : undefined;
  }

  /** "german" or "french": the card pattern, for a client's colours. */
  get pattern(): string {
    return this.text("cards", "pattern") ?? "";
  }

  /** A form of a suit ("name", "symbol", "a_name"). */
  suit(code: string, form = "name"): string {
    return this.text("cards", "suits", code, form) ?? code;
  }

  /** "QC" -> "Q♣" (or "Ei-O"); "??" stays "??". */
  card(code: string): string {
    const label = this.text("cards", "label");
    if (code.length !== 2 || code === "??" || !label) return code;
    const [rank, suit] = [code[0], code[1]];
    return label.replace("{rank}", this.text("cards", "ranks", rank) ?? rank).replace("{suit}", this.suit(suit, "symbol"));
  }

  /** The cards' labels, or how many when the viewer may not see them ("3 cards"). */
  cards(codes: readonly string[]): string {
    if (codes.length && !codes.includes("??")) return codes.map((c) => this.card(c)).join(" ");
    const count = this.text("cards", "count", codes.length === 1 ? "one" : "other") ?? "{n}";
    return count.replace("{n}", String(codes.length));
  }

  /** `{field}`: the value; `{field:seat}`, `{field:card}`, `{field:cards}`; any other form is
   *  that form of the suit the field holds. */
  fill(template: string, values: Record<string, unknown>, seatName: (seat: number) => string = (s) => `seat ${s}`): string {
    return template.replace(PLACEHOLDER, (_, field: string, form?: string) => {
      const v = values[field];
      if (v === undefined || v === null || v === "") return "";
      if (form === "seat") return seatName(Number(v));
      if (form === "card") return this.card(String(v));
      if (form === "cards") return this.cards(v as string[]);
      if (form) return this.suit(String(v), form);
      return String(v);
    });
  }

  /** A call or exchange in one of its forms. */
  call(action: CallLike, form: CallForm, seatName?: (seat: number) => string): string {
    const template = this.text("calls", action.type, action.call, form);
    if (template === undefined) {
      let text = raw(action.call);
      if (action.suit) text += ` ${this.suit(action.suit)}`;
      if (action.type === "exchange" && form !== "name") text += ` ${this.cards(action.cards ?? [])}`;
      return text;
    }
    return this.fill(template, action as unknown as Record<string, unknown>, seatName);
  }

  /** The contract (its JSON with the proto's field names) as a sentence: its type's template,
   *  then each declared field it holds, in the declared order. */
  contract(contract: Record<string, unknown>, seatName?: (seat: number) => string): string {
    const type = String(contract.type ?? "");
    const head = this.text("contracts", type);
    let out = head === undefined ? raw(type) : this.fill(head, contract, seatName);
    const fields = this.get("contract_fields");
    for (const f of Array.isArray(fields) ? (fields as JsonObject[]) : []) {
      const value = contract[String(f.field)];
      if (value === undefined || value === null || value === false || value === "" || (Array.isArray(value) && !value.length)) continue;
      const values = (f.values ?? {}) as JsonObject;
      const key = String(value);
      const chosen = key in values ? values[key] : f.text;
      if (typeof chosen !== "string" || !chosen) continue;
      const text = this.fill(chosen, contract, seatName);
      out = out ? out + (typeof f.join === "string" ? f.join : "; ") + text : text;
    }
    return out;
  }

  item(name: string): string {
    return this.text("items", name) ?? raw(name);
  }

  phase(name: string): string {
    return this.text("phases", name) ?? raw(name);
  }

  team(name: string): string {
    return this.text("teams", name) ?? name.charAt(0).toUpperCase() + name.slice(1);
  }
}
