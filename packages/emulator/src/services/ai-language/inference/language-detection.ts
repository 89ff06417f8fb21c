/**
 * Dominant-language detection.
 *
 * Latin-script languages (en, es, fr, de, it, pt, nl) are told apart by two signals that need
 * no model download: the share of tokens that are the language's stop words, and the cosine
 * similarity of the text's character trigrams to a profile built from a short sample paragraph
 * per language (written for this emulator). A few letters that are near-unique to one language
 * (ñ, ß, ã, ĳ…) add a small bonus. Other scripts are recognised by their Unicode script alone
 * (Cyrillic is reported as Russian, Han as Chinese, and so on), which is what a reader would do.
 *
 * Scores are sharpened and normalised to sum to 1 over all candidates; the result lists the
 * candidates scoring at least 0.01, best first, as OCI's `DetectedLanguage[]` does.
 */
import { byScoreThen, round, tokenize } from './text';

export interface DetectedLanguage {
  name: string;
  code: string;
  score: number;
}

interface LatinLanguage {
  code: string;
  name: string;
  stopWords: string[];
  sample: string;
  /** Letters that are strong evidence for this language. */
  cues: string;
}

const LATIN_LANGUAGES: LatinLanguage[] = [
  {
    code: 'en',
    name: 'English',
    stopWords:
      'the and of to a in is it that for was on are with as this be at by have from or an they which you were her his all she there would their we him been has when who will more no if out so said what up its about than into them can only other new some could these two may then do first any my now such like our over me even most after also did many before must through back years where much your way well down should because each just those people how too little state good very make world still own see men work long get here between both life being under never day same another know while last might us great old year off come since against go came right used take three'.split(
        ' ',
      ),
    sample:
      'The weather was pleasant this morning, so we walked through the park and talked about the new project. ' +
      'Everyone agreed that the team should finish the report before the end of the month. It would be easier ' +
      'if the data arrived on time, but the company has already changed its plans twice this year. When the ' +
      'meeting was over, they went back to work and wrote the summary for the board with their thoughts.',
    cues: '',
  },
  {
    code: 'es',
    name: 'Spanish',
    stopWords:
      'de la que el en y a los del se las por un para con no una su al lo como más pero sus le ya o este sí porque esta entre cuando muy sin sobre también me hasta hay donde quien desde todo nos durante todos uno les ni contra otros ese eso ante ellos e esto mí antes algunos qué unos yo otro otras otra él tanto esa estos mucho quienes nada muchos cual poco ella estar estas algunas algo nosotros mi mis tú te ti tu tus ellas nosotras vosotros os mío es son fue está están hemos ha han era'.split(
        ' ',
      ),
    sample:
      'El tiempo era agradable esta mañana, así que caminamos por el parque y hablamos sobre el nuevo proyecto. ' +
      'Todos estaban de acuerdo en que el equipo debería terminar el informe antes del final del mes. Sería más ' +
      'fácil si los datos llegaran a tiempo, pero la empresa ya ha cambiado sus planes dos veces este año. Cuando ' +
      'terminó la reunión, volvieron al trabajo y escribieron el resumen para la dirección con sus ideas.',
    cues: 'ñ¿¡',
  },
  {
    code: 'fr',
    name: 'French',
    stopWords:
      'le la les de des du un une et à en est que qui dans pour pas sur au aux ce ces cette il elle ils elles nous vous je tu on se sa son ses leur leurs mais ou donc ni car par avec plus ne y été être avoir a ont sont était très aussi tout tous comme bien sans sous entre chez fait faire peut même ici dont lui moi mon ma mes notre nos votre vos été'.split(
        ' ',
      ),
    sample:
      'Le temps était agréable ce matin, alors nous avons marché dans le parc et parlé du nouveau projet. Tout le ' +
      "monde était d'accord pour que l'équipe termine le rapport avant la fin du mois. Ce serait plus facile si les " +
      "données arrivaient à temps, mais l'entreprise a déjà changé ses plans deux fois cette année. Quand la réunion " +
      'fut terminée, ils sont retournés au travail et ont écrit le résumé pour la direction avec leurs idées.',
    cues: 'œçêèâîôûë',
  },
  {
    code: 'de',
    name: 'German',
    stopWords:
      'der die das und in den von zu mit sich des auf für ist im dem nicht ein eine als auch es an werden aus er hat dass sie nach wird bei einer um am sind noch wie einem über einen so zum war haben nur oder aber vor zur bis mehr durch man sein wurde sei hatte kann gegen vom können schon wenn habe seine ihre dann unter wir soll ich eines jahr zwei jahren diese dieser wieder keine uns mir euch ihm ihn ihr'.split(
        ' ',
      ),
    sample:
      'Das Wetter war heute Morgen angenehm, also sind wir durch den Park gegangen und haben über das neue Projekt ' +
      'gesprochen. Alle waren sich einig, dass das Team den Bericht vor dem Ende des Monats fertigstellen sollte. ' +
      'Es wäre einfacher, wenn die Daten pünktlich ankämen, aber die Firma hat ihre Pläne in diesem Jahr schon ' +
      'zweimal geändert. Nach der Besprechung gingen sie zurück zur Arbeit und schrieben die Zusammenfassung für den Vorstand.',
    cues: 'ßäöü',
  },
  {
    code: 'it',
    name: 'Italian',
    stopWords:
      'di e il la che in un una per non è a da del della delle dei degli al alla ai alle con su si lo gli le ma come anche più sono ha hanno era essere questo questa quello quella mi ti ci vi ne se perché quando dove chi io tu lui lei noi voi loro mio tuo suo nostro molto tutto tutti già ancora dopo prima tra fra sul nel nella negli cosa così'.split(
        ' ',
      ),
    sample:
      'Il tempo era piacevole questa mattina, così abbiamo camminato nel parco e parlato del nuovo progetto. Tutti ' +
      "erano d'accordo che la squadra dovesse finire la relazione prima della fine del mese. Sarebbe più facile se " +
      "i dati arrivassero in tempo, ma l'azienda ha già cambiato i suoi piani due volte quest'anno. Quando la " +
      'riunione è finita, sono tornati al lavoro e hanno scritto il riassunto per la direzione con le loro idee.',
    cues: 'ìò',
  },
  {
    code: 'pt',
    name: 'Portuguese',
    stopWords:
      'de a o que e do da em um para é com não uma os no se na por mais as dos como mas foi ao ele das tem à seu sua ou ser quando muito há nos já está eu também só pelo pela até isso ela entre era depois sem mesmo aos ter seus quem nas me esse eles estão você tinha foram essa num nem suas meu às minha têm numa pelos elas havia seja qual será nós tenho lhe deles essas esses pelas este fosse dele são'.split(
        ' ',
      ),
    sample:
      'O tempo estava agradável esta manhã, então caminhamos pelo parque e conversamos sobre o novo projeto. Todos ' +
      'concordaram que a equipe deveria terminar o relatório antes do fim do mês. Seria mais fácil se os dados ' +
      'chegassem a tempo, mas a empresa já mudou os seus planos duas vezes este ano. Quando a reunião acabou, eles ' +
      'voltaram ao trabalho e escreveram o resumo para a diretoria com as suas ideias e não com as nossas.',
    cues: 'ãõ',
  },
  {
    code: 'nl',
    name: 'Dutch',
    stopWords:
      'de en van ik te dat die in een hij het niet zijn is was op aan met als voor had er maar om hem dan zou of wat mijn men dit zo door over ze zich bij ook tot je mij uit der daar haar naar heb hoe heeft hebben deze u want nog zal me zij nu ge geen omdat iets worden toch al waren veel meer doen toen moet ben zonder kan hun dus alles onder ja eens hier wie werd altijd doch wordt wezen kunnen ons zelf tegen na reeds wil kon niets uw iemand geweest andere'.split(
        ' ',
      ),
    sample:
      'Het weer was vanochtend aangenaam, dus we liepen door het park en spraken over het nieuwe project. Iedereen ' +
      'was het erover eens dat het team het verslag voor het einde van de maand moest afronden. Het zou makkelijker ' +
      'zijn als de gegevens op tijd aankwamen, maar het bedrijf heeft zijn plannen dit jaar al twee keer veranderd. ' +
      'Toen de vergadering voorbij was, gingen ze terug naar hun werk en schreven de samenvatting voor de directie.',
    cues: 'ĳ',
  },
];

/* Non-Latin scripts: the script alone names the language (OCI codes). */
const SCRIPT_LANGUAGES: { code: string; name: string; re: RegExp }[] = [
  { code: 'ja', name: 'Japanese', re: /[\p{Script=Hiragana}\p{Script=Katakana}]/gu },
  { code: 'ko', name: 'Korean', re: /\p{Script=Hangul}/gu },
  { code: 'zh-CN', name: 'Chinese', re: /\p{Script=Han}/gu },
  { code: 'ru', name: 'Russian', re: /\p{Script=Cyrillic}/gu },
  { code: 'el', name: 'Greek', re: /\p{Script=Greek}/gu },
  { code: 'he', name: 'Hebrew', re: /\p{Script=Hebrew}/gu },
  { code: 'ar', name: 'Arabic', re: /\p{Script=Arabic}/gu },
  { code: 'hi', name: 'Hindi', re: /\p{Script=Devanagari}/gu },
  { code: 'th', name: 'Thai', re: /\p{Script=Thai}/gu },
];

type Profile = ReadonlyMap<string, number>;

/** Character trigrams of each word, padded with spaces so word starts and ends count. */
function trigrams(text: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const token of tokenize(text)) {
    if (token.kind !== 'word') continue;
    const padded = ` ${token.lower} `;
    for (let i = 0; i + 3 <= padded.length; i++) {
      const gram = padded.slice(i, i + 3);
      counts.set(gram, (counts.get(gram) ?? 0) + 1);
    }
  }
  return counts;
}

function norm(profile: Profile): number {
  let sum = 0;
  for (const value of profile.values()) sum += value * value;
  return Math.sqrt(sum);
}

function cosine(a: Profile, b: Profile, normB: number): number {
  const normA = norm(a);
  if (normA === 0 || normB === 0) return 0;
  let dot = 0;
  for (const [gram, count] of a) dot += count * (b.get(gram) ?? 0);
  return dot / (normA * normB);
}

interface BuiltLanguage extends LatinLanguage {
  stopSet: ReadonlySet<string>;
  profile: Profile;
  profileNorm: number;
}

/* Constant, derived once from the constants above (not mutable state). */
const BUILT: readonly BuiltLanguage[] = Object.freeze(
  LATIN_LANGUAGES.map((language) => {
    // The profile also sees the stop words, the most frequent words of any text.
    const profile = trigrams(`${language.sample} ${language.stopWords.join(' ')}`);
    return { ...language, stopSet: new Set(language.stopWords), profile, profileNorm: norm(profile) };
  }),
);

/** Stop-word lists by ISO code, reused by key-phrase extraction for non-English text. */
export function stopWordsFor(code: string): ReadonlySet<string> | undefined {
  const base = code.toLowerCase().split('-')[0];
  return BUILT.find((language) => language.code === base)?.stopSet;
}

/** Detected languages, best first, scores normalised over all candidates. Empty when the text has no letters. */
export function detectLanguages(text: string): DetectedLanguage[] {
  const letters = text.match(/\p{L}/gu)?.length ?? 0;
  if (letters === 0) return [];

  const raw: { code: string; name: string; value: number }[] = [];
  let scriptLetters = 0;
  for (const script of SCRIPT_LANGUAGES) {
    const count = text.match(script.re)?.length ?? 0;
    scriptLetters += count;
    if (count > 0) raw.push({ code: script.code, name: script.name, value: count / letters });
  }
  // Kana always comes with Han in Japanese; do not let the Han count call it Chinese.
  const ja = raw.find((entry) => entry.code === 'ja');
  const zh = raw.find((entry) => entry.code === 'zh-CN');
  if (ja && zh) {
    ja.value += zh.value;
    zh.value *= 0.1;
  }

  const latinShare = Math.max(0, letters - scriptLetters) / letters;
  if (latinShare > 0) {
    const tokens = tokenize(text).filter((token) => token.kind === 'word');
    const textProfile = trigrams(text);
    const lower = text.toLowerCase();
    for (const language of BUILT) {
      const stopHits = tokens.filter((token) => language.stopSet.has(token.lower.replace(/’/g, "'"))).length;
      const stopShare = tokens.length === 0 ? 0 : stopHits / tokens.length;
      const similarity = cosine(textProfile, language.profile, language.profileNorm);
      let cueBonus = 0;
      for (const cue of language.cues) if (lower.includes(cue)) cueBonus += 0.05;
      const value = (Math.min(1, stopShare * 2) * 0.55 + similarity * 0.45 + Math.min(cueBonus, 0.15)) * latinShare;
      raw.push({ code: language.code, name: language.name, value });
    }
  }

  // Sharpen (p^6) so the winner stands out, then normalise to a distribution.
  const sharpened = raw.map((entry) => ({ ...entry, value: entry.value ** 6 }));
  const total = sharpened.reduce((sum, entry) => sum + entry.value, 0);
  if (total === 0) return [];
  return sharpened
    .map((entry) => ({ name: entry.name, code: entry.code, score: round(entry.value / total) }))
    .filter((entry) => entry.score >= 0.01)
    .sort(
      byScoreThen(
        (entry) => entry.score,
        (entry) => entry.code,
      ),
    );
}

/** The most likely language code, or `fallback` when nothing can be said. */
export function dominantLanguageCode(text: string, fallback = 'en'): string {
  return detectLanguages(text)[0]?.code ?? fallback;
}
