/**
 * The frame of every back-office page (/app/ops): header (the operator, role, language,
 * sign-out), the back office's navigation and the page in <main>. Same landmarks as the merchant
 * dashboard's frame (app-shell.tsx): header, a labelled nav, main after a skip link.
 */
import { AppShell, Burger, Button, Group, NavLink, Text, Title, VisuallyHidden } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { Link, Outlet, useNavigate, useRouterState } from '@tanstack/react-router';
import { operatorSessionQuery, operatorSignOut } from '../api/operator-session.ts';
import { useI18n } from '../i18n/context.tsx';
import { LanguageSwitch } from './language-switch.tsx';
import { OPS_MENU as NAV } from './menus.ts';

const matches = (pathname: string, to: string) => pathname === to || pathname.startsWith(`${to}/`);
/** The most specific entry only: /ops/orders/stuck is not also /ops/orders. */
const activeEntry = (pathname: string) => NAV.filter((item) => matches(pathname, item.to)).sort((a, b) => b.to.length - a.to.length)[0]?.to;

export function OpsShellLayout() {
  const { t } = useI18n();
  const [opened, { toggle, close }] = useDisclosure();
  const navigate = useNavigate();
  const pathname = useRouterState({ select: (state) => state.location.pathname });
  const session = useQuery(operatorSessionQuery);
  const active = activeEntry(pathname);

  const onSignOut = async () => {
    await operatorSignOut().catch(() => undefined);
    await navigate({ to: '/ops/sign-in', search: { signedOut: true } });
  };

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
              {t('ops.title')}
            </Text>
          </Group>
          <Group wrap="nowrap" align="end">
            {session.data ? (
              <Text size="sm" visibleFrom="sm">
                {t('header.signedInAs', { email: session.data.operator.email })} · {t('ops.header.role', { role: session.data.operator.role })}
              </Text>
            ) : null}
            <LanguageSwitch />
            <Button variant="default" size="xs" onClick={onSignOut}>
              {t('header.signOut')}
            </Button>
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="xs" component="nav" aria-label={t('ops.nav.label')}>
        <VisuallyHidden>
          <Title order={2}>{t('ops.nav.label')}</Title>
        </VisuallyHidden>
        {NAV.map((item) => (
          <NavLink key={item.to} component={Link} variant="filled" to={item.to} label={t(item.label)} active={active === item.to} aria-current={active === item.to ? 'page' : undefined} onClick={close} />
        ))}
      </AppShell.Navbar>
      <AppShell.Main id="main" tabIndex={-1}>
        <Outlet />
      </AppShell.Main>
    </AppShell>
  );
}
