import i18n from 'i18next'
import { initReactI18next } from 'react-i18next'
import { global, translation } from './en'

// The language is a setting that survives sign-out (spec 002 §4); English is
// the only language so far.
void i18n.use(initReactI18next).init({
  lng: 'en',
  fallbackLng: 'en',
  ns: ['translation', 'global'],
  defaultNS: 'translation',
  resources: { en: { translation, global } },
  interpolation: { escapeValue: false },
  returnNull: false,
})

export default i18n
