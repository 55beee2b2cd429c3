import type { ReactNode } from 'react'
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs'

export interface RouteTab {
  value: string
  label: string
}

/** Tabs whose panels are child routes: choosing a tab navigates. */
export function RouteTabs({
  label,
  tabs,
  active,
  onSelect,
  children,
}: {
  label: string
  tabs: readonly RouteTab[]
  active: string
  onSelect: (value: string) => void
  children: ReactNode
}) {
  return (
    <Tabs value={active} onValueChange={onSelect} activationMode="manual">
      <TabsList aria-label={label}>
        {tabs.map((tab) => (
          <TabsTrigger key={tab.value} value={tab.value}>
            {tab.label}
          </TabsTrigger>
        ))}
      </TabsList>
      <TabsContent value={active}>{children}</TabsContent>
    </Tabs>
  )
}
