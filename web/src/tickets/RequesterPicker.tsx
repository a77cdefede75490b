import { useQuery } from '@apollo/client/react';
import { useCombobox } from 'downshift';
import { useEffect, useState } from 'react';
import { graphql, useFragment, type FragmentType } from '../gql';
import './tickets.css';

export const RequesterPicker_customer = graphql(`
  fragment RequesterPicker_customer on Customer {
    id
    name
    email
  }
`);

/** The customers whose name or email contains what was typed, newest first; one page is plenty for a picker. */
const REQUESTER_SEARCH = graphql(`
  query RequesterSearch($search: String, $first: Int!) {
    customers(search: $search, first: $first) {
      totalCount
      nodes {
        id
        ...RequesterPicker_customer
      }
    }
  }
`);

const REQUESTER_SEARCH_SIZE = 20;
const DEBOUNCE_MS = 250;

interface Requester {
  id: number;
  name: string;
  email: string;
}

interface RequesterPickerProps {
  /** From Field: the input's id (its label is `${id}-label`) and aria state. */
  id: string;
  'aria-invalid': boolean;
  'aria-describedby'?: string;
  /** The chosen customer (the edited ticket's requester at first), or null. */
  value: FragmentType<typeof RequesterPicker_customer> | null;
  onChange: (customer: Requester | null) => void;
}

const label = (c: Requester | null) => (c ? `${c.name} (${c.email})` : '');

/** The value `value` settles on after `ms` without a change. */
function useDebounced<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

/**
 * The ticket form's requester: a combobox (downshift: the ARIA 1.2 combobox pattern, arrow keys, Enter, Escape)
 * that asks the server for matching customers as the agent types (debounced), instead of loading the whole
 * directory. Nothing is fetched until the list is opened. Typing after a choice clears it: the form then says
 * "Requester is required." until a customer is chosen from the list.
 */
export function RequesterPicker(props: RequesterPickerProps) {
  const initial: Requester | null = useFragment(RequesterPicker_customer, props.value);
  const [selected, setSelected] = useState<Requester | null>(initial);
  const [input, setInput] = useState(label(initial));
  const [opened, setOpened] = useState(false);
  const typed = input === label(selected) ? '' : input.trim();
  const search = useDebounced(typed, DEBOUNCE_MS);
  const { data, previousData, loading, error } = useQuery(REQUESTER_SEARCH, {
    variables: { search, first: REQUESTER_SEARCH_SIZE },
    skip: !opened,
  });
  const page = (data ?? previousData)?.customers;
  const items = useFragment(RequesterPicker_customer, page?.nodes ?? []) as readonly Requester[] as Requester[];
  const pending = loading || search !== typed;

  const combobox = useCombobox<Requester>({
    items,
    inputId: props.id,
    labelId: `${props.id}-label`,
    itemToString: (item) => label(item),
    itemToKey: (item) => item?.id,
    selectedItem: selected,
    inputValue: input,
    // The text is the agent's: only typing changes it (and a choice, below), never a state change of the menu.
    onInputValueChange: ({ inputValue, type }) => {
      if (type !== useCombobox.stateChangeTypes.InputChange) return;
      setInput(inputValue ?? '');
      if (selected) {
        setSelected(null);
        props.onChange(null);
      }
    },
    onSelectedItemChange: ({ selectedItem }) => {
      setSelected(selectedItem ?? null);
      setInput(label(selectedItem ?? null));
      props.onChange(selectedItem ?? null);
    },
    onIsOpenChange: ({ isOpen }) => {
      if (isOpen) setOpened(true);
    },
  });
  const { isOpen, highlightedIndex, getInputProps, getMenuProps, getItemProps, openMenu } = combobox;
  const statusId = `${props.id}-status`;

  let status = '';
  if (isOpen) {
    if (error) status = 'Could not search the customers. Type again to retry.';
    else if (pending || !page) status = 'Searching...';
    else if (page.totalCount === 0) status = typed ? `No customer matches "${typed}".` : 'No customers yet: create one first.';
    else
      status = `${page.totalCount > items.length ? `First ${items.length} of ${page.totalCount}` : `${page.totalCount}`} ${page.totalCount === 1 ? 'customer' : 'customers'}${typed ? ` matching "${typed}"` : ''}; type to narrow.`;
  }

  return (
    <div className="combobox">
      <input
        {...getInputProps({
          name: 'requesterId',
          placeholder: 'Search customers by name or email',
          'aria-invalid': props['aria-invalid'],
          'aria-describedby': [statusId, props['aria-describedby']].filter(Boolean).join(' '),
          // Focus (keyboard or mouse) opens the list; a click never closes it (downshift's default toggles).
          onFocus: () => !isOpen && openMenu(),
          onClick: (event) => {
            (event.nativeEvent as Event & { preventDownshiftDefault?: boolean }).preventDownshiftDefault = true;
            openMenu();
          },
        })}
      />
      <p id={statusId} className="combobox-status" role="status" aria-live="polite">
        {status}
      </p>
      <ul {...getMenuProps()} className={`combobox-menu${isOpen && items.length ? ' combobox-menu-open' : ''}`} aria-busy={pending}>
        {isOpen &&
          items.map((item, index) => (
            <li
              key={item.id}
              className={`combobox-option${highlightedIndex === index ? ' combobox-option-active' : ''}${selected?.id === item.id ? ' combobox-option-selected' : ''}`}
              {...getItemProps({ item, index })}
            >
              <span className="combobox-option-name">{item.name}</span> <span className="muted">{item.email}</span>
            </li>
          ))}
      </ul>
    </div>
  );
}
