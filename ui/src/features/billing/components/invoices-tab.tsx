import { useTranslation } from 'react-i18next'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'

/** PLACEHOLDER: the invoices table (GET billing) is later work. */
export function InvoicesTab() {
  const { t } = useTranslation('billing')
  return (
    <Card>
      <CardHeader>
        <CardTitle>{t('invoices.title')}</CardTitle>
        <CardDescription>{t('invoices.placeholder')}</CardDescription>
      </CardHeader>
      <CardContent />
    </Card>
  )
}
