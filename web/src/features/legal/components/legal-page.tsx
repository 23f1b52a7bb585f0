import { useTranslation } from 'react-i18next'
import { Link } from '@tanstack/react-router'
import { ThemeToggle } from '@/components/layout/theme-toggle'

type Section = { title: string; paragraphs: string[] }

/**
 * LegalPage is the Terms of Service or the Privacy Policy: plain text any
 * visitor can read, signed in or not, with a link to the other page.
 */
export function LegalPage({ page }: { page: 'terms' | 'privacy' }) {
  const { t } = useTranslation()
  const sections = t(`legal.${page}.sections`, { returnObjects: true }) as Section[]
  const other = page === 'terms' ? 'privacy' : 'terms'
  return (
    <div className="flex min-h-dvh flex-col">
      <header className="flex items-center justify-between px-4 py-3 sm:px-6">
        <Link to="/" className="flex items-center gap-2 font-semibold">
          <img src="/favicon.svg" alt="" className="size-7" />
          <span>{t('legal.home')}</span>
        </Link>
        <ThemeToggle />
      </header>
      <main id="main" className="mx-auto w-full max-w-2xl px-4 pb-16 pt-6 sm:px-6">
        <h1 className="text-2xl font-semibold tracking-tight">{t(`legal.${page}.title`)}</h1>
        <p className="mt-2 text-sm text-muted-foreground">{t('legal.updated')}</p>
        {sections.map((s) => (
          <section key={s.title} className="mt-8">
            <h2 className="text-lg font-semibold">{s.title}</h2>
            {s.paragraphs.map((p) => (
              <p key={p} className="mt-2 leading-relaxed">
                {p}
              </p>
            ))}
          </section>
        ))}
        <p className="mt-10 text-sm">
          <Link to={`/${other}`} className="font-medium text-primary underline-offset-4 hover:underline">
            {t(`legal.link.${other}`)}
          </Link>
        </p>
      </main>
    </div>
  )
}
