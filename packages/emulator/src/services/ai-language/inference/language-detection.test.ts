import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { detectLanguages, dominantLanguageCode } from './language-detection';

const SENTENCES: Record<string, string> = {
  en: 'Could you please tell me when the next train to the airport leaves? I have been waiting here for an hour.',
  es: '¿Podría decirme cuándo sale el próximo tren al aeropuerto? Llevo una hora esperando aquí y nadie sabe nada.',
  fr: "Pourriez-vous me dire quand part le prochain train pour l'aéroport ? J'attends ici depuis une heure.",
  de: 'Können Sie mir bitte sagen, wann der nächste Zug zum Flughafen fährt? Ich warte hier schon seit einer Stunde.',
  it: "Potrebbe dirmi quando parte il prossimo treno per l'aeroporto? Sto aspettando qui da un'ora e nessuno sa niente.",
  pt: 'Você poderia me dizer quando sai o próximo trem para o aeroporto? Estou esperando aqui há uma hora e ninguém sabe.',
  nl: 'Kunt u mij vertellen wanneer de volgende trein naar het vliegveld vertrekt? Ik wacht hier al een uur.',
};

const NAMES: Record<string, string> = {
  en: 'English',
  es: 'Spanish',
  fr: 'French',
  de: 'German',
  it: 'Italian',
  pt: 'Portuguese',
  nl: 'Dutch',
};

describe('detectLanguages', () => {
  for (const [code, text] of Object.entries(SENTENCES)) {
    it(`recognises ${NAMES[code]}`, () => {
      const languages = detectLanguages(text);
      assert.equal(languages[0]?.code, code, JSON.stringify(languages));
      assert.equal(languages[0]?.name, NAMES[code]);
      assert.ok(languages[0]!.score > 0.5, `score ${languages[0]!.score}`);
    });
  }

  it('returns normalised scores, best first', () => {
    for (const text of Object.values(SENTENCES)) {
      const languages = detectLanguages(text);
      const total = languages.reduce((sum, language) => sum + language.score, 0);
      assert.ok(total <= 1.0001 && total > 0.95, `total ${total}`);
      for (let i = 1; i < languages.length; i++) assert.ok(languages[i - 1]!.score >= languages[i]!.score);
      for (const language of languages) assert.ok(language.score >= 0 && language.score <= 1);
    }
  });

  it('recognises other scripts', () => {
    assert.equal(detectLanguages('東京は日本の首都です。たくさんの人が住んでいます。')[0]?.code, 'ja');
    assert.equal(detectLanguages('Я хотел бы знать, когда придёт мой заказ.')[0]?.code, 'ru');
    assert.equal(detectLanguages('서울은 한국의 수도입니다.')[0]?.code, 'ko');
  });

  it('says nothing about text without letters', () => {
    assert.deepEqual(detectLanguages('12345 !!! ...'), []);
    assert.equal(dominantLanguageCode('', 'en'), 'en');
  });

  it('is deterministic', () => {
    assert.deepEqual(detectLanguages(SENTENCES.pt!), detectLanguages(SENTENCES.pt!));
  });
});
