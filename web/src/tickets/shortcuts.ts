import { useEffect, useEffectEvent, useState } from 'react';

/**
 * The ticket page's single-key shortcuts: j / k next and previous ticket, r reply, n note, Esc back to the list.
 * They act only outside text fields and menus, never with a modifier, never while a dialog is open, and can be
 * turned off (WCAG 2.1.4: a speech-input user's words must not fire them); the choice is remembered.
 */
export type ShortcutKey = 'j' | 'k' | 'r' | 'n' | 'Escape';

const ENABLED_KEY = 'fulcrum.singleKeyShortcuts';

function storedEnabled(): boolean {
  try {
    return localStorage.getItem(ENABLED_KEY) !== 'off';
  } catch {
    return true;
  }
}

/** Whether single-key shortcuts are on, and its setter (kept in localStorage). */
export function useShortcutsSetting(): [boolean, (on: boolean) => void] {
  const [enabled, setEnabled] = useState(storedEnabled);
  return [
    enabled,
    (on) => {
      setEnabled(on);
      try {
        localStorage.setItem(ENABLED_KEY, on ? 'on' : 'off');
      } catch {
        // No storage: the choice lasts this page.
      }
    },
  ];
}

/** A key pressed where typing goes (a field, an editable element, a listbox or menu that reads letters). */
export function typingTarget(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName)) return true;
  return !!target.closest('[role="combobox"], [role="listbox"], [role="menu"], [role="dialog"], [cmdk-root]');
}

const KEYS: readonly ShortcutKey[] = ['j', 'k', 'r', 'n', 'Escape'];

/** Calls `act` for a shortcut key pressed on the page while `enabled`. */
export function useSingleKeyShortcuts(enabled: boolean, act: (key: ShortcutKey) => void): void {
  const onKey = useEffectEvent((event: KeyboardEvent) => {
    if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey || event.repeat) return;
    const key = KEYS.find((candidate) => candidate === event.key);
    if (!key || typingTarget(event.target)) return;
    if (document.querySelector('[role="dialog"], [aria-modal="true"]')) return;
    event.preventDefault();
    act(key);
  });
  useEffect(() => {
    if (!enabled) return;
    const listener = (event: KeyboardEvent) => onKey(event);
    document.addEventListener('keydown', listener);
    return () => document.removeEventListener('keydown', listener);
  }, [enabled]);
}
