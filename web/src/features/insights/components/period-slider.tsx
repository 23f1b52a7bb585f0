import { useTranslation } from 'react-i18next'
import { Slider } from '@/components/ui/slider'
import { PERIODS, type Period } from '../api/keys'

/**
 * PeriodSlider chooses the reports' period: 30, 60 or 90 days, in steps of
 * 30 (spec 002 §2). The arrow keys, Home and End move it too.
 */
export function PeriodSlider({ value, onChange }: { value: Period; onChange: (p: Period) => void }) {
  const { t } = useTranslation()
  const text = (v: number) => t('insights.period.value', { count: v })
  return (
    <div className="grid w-full gap-2 @3xl:max-w-md" data-testid="period-slider">
      <div className="flex items-baseline justify-between gap-2 text-sm">
        <span className="font-medium" aria-hidden>
          {t('insights.period.label')}
        </span>
        <span className="text-muted-foreground" aria-hidden>
          {text(value)}
        </span>
      </div>
      <Slider
        aria-label={t('insights.period.label')}
        min={PERIODS[0]}
        max={PERIODS[PERIODS.length - 1]}
        step={30}
        value={[value]}
        valueText={text}
        onValueChange={([v]) => {
          if (v !== undefined && v !== value) onChange(v as Period)
        }}
        className="py-2"
      />
      <div className="flex justify-between text-xs text-muted-foreground" aria-hidden>
        {PERIODS.map((p) => (
          <span key={p}>{t('insights.period.days', { count: p })}</span>
        ))}
      </div>
    </div>
  )
}
