/**
 * The frame of every signed-in page of both apps: header (who the app is for, who is signed in,
 * language, sign-out), the app's navigation (menus.ts) and the page in <main>. Landmarks: header,
 * a labelled nav, main; a skip link reaches main first. The merchant dashboard's and the back
 * office's frames differ only by what they pass: the menu, the header's identity, the session and
 * the sign-out.
 */
import { AppShell, Burger, Button, Group, NavLink, Text, Title, VisuallyHidden } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { Link, Outlet, useNavigate, useRouterState } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { api, call } from '../api/client.ts';
import { operatorSessionQuery, operatorSignOut } from '../api/operator-session.ts';
import { keys } from '../api/query-keys.ts';
import { sessionQuery, signOut } from '../api/session.ts';
import { useI18n } from '../i18n/context.tsx';
import type { MessageKey } from '../i18n/messages.ts';
import { LanguageSwitch } from './language-switch.tsx';
import { MERCHANT_MENU, OPS_MENU, type MenuEntry } from './menus.ts';

const matches = (pathname: string, to: string) => (to === '/' ? pathname === '/' : pathname === to || pathname.startsWith(`${to}/`));
/** The most specific entry of a level only: /ops/orders/stuck is not also /ops/orders. */
const activeOf = (pathname: string, entries: MenuEntry[]) => entries.filter((entry) => matches(pathname, entry.to)).sort((a, b) => b.to.length - a.to.length)[0]?.to;

function Menu({ entries, pathname, onNavigate }: { entries: MenuEntry[]; pathname: string; onNavigate: () => void }) {
  const { t } = useI18n();
  const active = activeOf(pathname, entries);
  return entries.map((entry) =>
    entry.children ? (
      <NavLink key={entry.to} component="button" label={t(entry.label)} defaultOpened={matches(pathname, entry.to)}>
        <Menu entries={entry.children} pathname={pathname} onNavigate={onNavigate} />
      </NavLink>
    ) : (
      <NavLink key={entry.to} component={Link} variant="filled" to={entry.to} label={t(entry.label)} active={active === entry.to} aria-current={active === entry.to ? 'page' : undefined} onClick={onNavigate} />
    ),
  );
}

export interface ShellProps {
  menu: MenuEntry[];
  navLabel: MessageKey;
  /** The header's name of the app (the merchant's name, the back office). */
  title: ReactNode;
  /** Who is signed in, once the session is read. */
  identity: ReactNode;
  onSignOut: () => Promise<void>;
}

export function Shell({ menu, navLabel, title, identity, onSignOut }: ShellProps) {
  const { t } = useI18n();
  const [opened, { toggle, close }] = useDisclosure();
  const pathname = useRouterState({ select: (state) => state.location.pathname });

  return (
    <AppShell header={{ height: 64 }} navbar={{ width: 240, breakpoint: 'sm', collapsed: { mobile: !opened } }} padding="md">
      <a href="#main" className="skip-link">
        {t('app.skipToContent')}
      </a>
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group wrap="nowrap">
            <Burger opened={opened} onClick={toggle} hiddenFrom="sm" size="sm" aria-label={t('nav.openMenu')} aria-expanded={opened} />
            <Text fw={700} component="p">
              {title}
            </Text>
          </Group>
          <Group wrap="nowrap" align="end">
            {identity ? (
              <Text size="sm" visibleFrom="sm">
                {identity}
              </Text>
            ) : null}
            <LanguageSwitch />
            <Button variant="default" size="xs" onClick={() => void onSignOut()}>
              {t('header.signOut')}
            </Button>
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="xs" component="nav" aria-label={t(navLabel)}>
        <VisuallyHidden>
          <Title order={2}>{t(navLabel)}</Title>
        </VisuallyHidden>
        <Menu entries={menu} pathname={pathname} onNavigate={close} />
      </AppShell.Navbar>
      <AppShell.Main id="main" tabIndex={-1}>
        <Outlet />
      </AppShell.Main>
    </AppShell>
  );
}

/** The merchant dashboard's frame (/app): the merchant's name, the person's email. */
export function MerchantShell() {
  const { t } = useI18n();
  const navigate = useNavigate();
  const session = useQuery(sessionQuery);
  const merchant = useQuery({ queryKey: keys.merchant, queryFn: () => call(api.GET('/merchant')) });
  return (
    <Shell
      menu={MERCHANT_MENU}
      navLabel="nav.label"
      title={merchant.data?.name ?? t('app.title')}
      identity={session.data ? t('header.signedInAs', { email: session.data.user.email }) : null}
      onSignOut={async () => {
        await signOut().catch(() => undefined);
        await navigate({ to: '/sign-in', search: { signedOut: true } });
      }}
    />
  );
}

/** The back office's frame (/app/ops): the operator's email and role. */
export function OpsShell() {
  const { t } = useI18n();
  const navigate = useNavigate();
  const session = useQuery(operatorSessionQuery);
  return (
    <Shell
      menu={OPS_MENU}
      navLabel="ops.nav.label"
      title={t('ops.title')}
      identity={session.data ? `${t('header.signedInAs', { email: session.data.operator.email })} · ${t('ops.header.role', { role: session.data.operator.role })}` : null}
      onSignOut={async () => {
        await operatorSignOut().catch(() => undefined);
        await navigate({ to: '/ops/sign-in', search: { signedOut: true } });
      }}
    />
  );
}
