/**
 * The frame of every signed-in page: header (merchant, person, language, sign-out), navigation
 * and the page in <main>. Landmarks: header, nav (labelled), main; a skip link reaches main first.
 */
import { AppShell, Burger, Button, Group, NavLink, Text, Title, VisuallyHidden } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { Link, Outlet, useNavigate, useRouterState } from '@tanstack/react-router';
import { api, call } from '../api/client.ts';
import { sessionQuery, signOut } from '../api/session.ts';
import { useI18n } from '../i18n/context.tsx';
import { LanguageSwitch } from './language-switch.tsx';
import { MERCHANT_MENU as NAV } from './menus.ts';

const isActive = (pathname: string, to: string) => (to === '/' ? pathname === '/' : pathname === to || pathname.startsWith(`${to}/`));

export function AppShellLayout() {
  const { t } = useI18n();
  const [opened, { toggle, close }] = useDisclosure();
  const navigate = useNavigate();
  const pathname = useRouterState({ select: (state) => state.location.pathname });
  const session = useQuery(sessionQuery);
  const merchant = useQuery({ queryKey: ['merchant'], queryFn: () => call(api.GET('/merchant')) });

  const onSignOut = async () => {
    await signOut().catch(() => undefined);
    await navigate({ to: '/sign-in', search: { signedOut: true } });
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
              {merchant.data?.name ?? t('app.title')}
            </Text>
          </Group>
          <Group wrap="nowrap" align="end">
            {session.data ? (
              <Text size="sm" visibleFrom="sm">
                {t('header.signedInAs', { email: session.data.user.email })}
              </Text>
            ) : null}
            <LanguageSwitch />
            <Button variant="default" size="xs" onClick={onSignOut}>
              {t('header.signOut')}
            </Button>
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="xs" component="nav" aria-label={t('nav.label')}>
        <VisuallyHidden>
          <Title order={2}>{t('nav.label')}</Title>
        </VisuallyHidden>
        {NAV.map((item) =>
          item.children ? (
            <NavLink key={item.to} component="button" label={t(item.label)} defaultOpened={isActive(pathname, item.to)}>
              {item.children.map((child, _, siblings) => {
                // The most specific match only: /developers/webhooks/deliveries is not also /developers/webhooks.
                const active = isActive(pathname, child.to) && !siblings.some((other) => other.to.length > child.to.length && isActive(pathname, other.to));
                return <NavLink key={child.to} component={Link} variant="filled" to={child.to} label={t(child.label)} active={active} aria-current={active ? 'page' : undefined} onClick={close} />;
              })}
            </NavLink>
          ) : (
            <NavLink key={item.to} component={Link} variant="filled" to={item.to} label={t(item.label)} active={isActive(pathname, item.to)} aria-current={isActive(pathname, item.to) ? 'page' : undefined} onClick={close} />
          ),
        )}
      </AppShell.Navbar>
      <AppShell.Main id="main" tabIndex={-1}>
        <Outlet />
      </AppShell.Main>
    </AppShell>
  );
}
