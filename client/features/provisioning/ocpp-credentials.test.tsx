import { readFileSync } from 'node:fs'
import { renderToStaticMarkup } from 'react-dom/server'
import { createInstance } from 'i18next'
import { I18nextProvider, initReactI18next } from 'react-i18next'
import { describe, expect, it } from 'vitest'
import { OcppCredentialsPanel } from './ocpp-credentials.tsx'

const credentials = { charge_point_id: 'CP-GARAGE-01', password: 'q7Vd-93kLm-Xw2p', url: 'wss://cockpit.example/ocpp/CP-GARAGE-01' }

/** The panel as a browser gets it in `language`, with the real texts of the provisioning namespace. */
async function render(language: 'en' | 'de' | 'fr' | 'it') {
  const i18n = createInstance()
  const texts = JSON.parse(readFileSync(new URL(`../../i18n/locales/${language}/provisioning.json`, import.meta.url), 'utf8'))
  await i18n.use(initReactI18next).init({ lng: language, resources: { [language]: { provisioning: texts } }, interpolation: { escapeValue: false }, react: { useSuspense: false } })
  const html = renderToStaticMarkup(
    <I18nextProvider i18n={i18n}>
      <OcppCredentialsPanel stationName="Wallbox Garage" credentials={credentials} onDone={() => undefined} />
    </I18nextProvider>,
  )
  return { html, texts }
}

const text = (html: string) => html.replace(/<[^>]+>/g, ' ').replace(/&#x27;/g, "'").replace(/&quot;/g, '"').replace(/\s+/g, ' ')

describe('the OCPP credentials shown once', () => {
  it('shows the charge point id, the password and the URL the electrician enters in the wallbox', async () => {
    const { html } = await render('en')
    expect(text(html)).toContain('OCPP credentials of Wallbox Garage')
    for (const value of Object.values(credentials)) expect(html).toContain(`>${value}</code>`)
  })

  it('says plainly that the password will not be shown again', async () => {
    const { html } = await render('en')
    expect(text(html)).toContain('the password is shown only this once and cannot be shown again')
  })

  it('has a copy button for each value, named for screen readers by what it copies', async () => {
    const { html } = await render('en')
    const labels = [...html.matchAll(/<button[^>]*aria-label="([^"]+)"/g)].map((m) => m[1])
    expect(labels).toEqual(['Copy Charge point id', 'Copy Password', 'Copy URL (OCPP server)'])
    // The panel is a region named by its heading, which takes the focus when it appears.
    const heading = /<h2 id="([^"]+)" tabindex="-1"/.exec(html)
    expect(heading).not.toBeNull()
    expect(html).toContain(`<section aria-labelledby="${heading![1]}"`)
    expect(html).toContain('role="status"')
  })

  it.each(['de', 'fr', 'it'] as const)('is translated in %s', async (language) => {
    const { html, texts } = await render(language)
    expect(text(html)).toContain(texts.credentials.once)
    expect(text(html)).toContain(texts.credentials.done)
    expect(html).not.toContain('credentials.')
  })
})
