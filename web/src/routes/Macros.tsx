import { useMutation, useQuery } from '@apollo/client/react';
import { useState } from 'react';
import { NO_MACRO_ID } from '@fulcrum/schema/validation';
import { ConfirmModal } from '../components/ConfirmModal';
import { MacroCard } from '../components/MacroCard';
import { RequireAuth } from '../components/RequireAuth';
import { useModals } from '../components/ModalHost';
import { EditMacroModal, type MacroValues } from '../forms/MacroForm';
import { graphql } from '../gql';

const MACROS_PAGE = graphql(`
  query MacrosPage {
    macros {
      id
      ...MacroCard_macro
    }
  }
`);

const DELETE_MACRO = graphql(`
  mutation DeleteMacro($id: Int!) {
    deleteMacro(id: $id) {
      id
      movedTicketIds
    }
  }
`);

type Dialog = { kind: 'edit' | 'delete'; macro: MacroValues } | null;

function MacrosScreen() {
  const { data } = useQuery(MACROS_PAGE);
  const { openModal } = useModals();
  const [dialog, setDialog] = useState<Dialog>(null);
  const [deleteMacro] = useMutation(DELETE_MACRO, {
    update(cache, { data: result }) {
      if (!result) return;
      const { id, movedTicketIds } = result.deleteMacro;
      const ref = cache.identify({ __typename: 'Macro', id });
      cache.modify({
        fields: {
          macros: (existing: readonly { __ref: string }[]) => existing.filter((item) => item.__ref !== ref),
        },
      });
      // Tickets that used the macro now use "No Macro".
      for (const ticketId of movedTicketIds) {
        cache.modify({
          id: cache.identify({ __typename: 'Ticket', id: ticketId }),
          fields: {
            macroId: () => NO_MACRO_ID,
            macro: (_value, { toReference }) => toReference({ __typename: 'Macro', id: NO_MACRO_ID })!,
          },
        });
      }
      cache.evict({ id: ref });
      cache.gc();
    },
  });
  if (!data) return null;
  const close = () => setDialog(null);

  return (
    <section className="page">
      <header className="page-header page-header-row">
        <div>
          <p className="eyebrow">Canned replies</p>
          <h1>({data.macros.length}) Macros</h1>
        </div>
        <button type="button" className="button button-primary" onClick={() => openModal('createMacro')}>
          Create Macro
        </button>
      </header>
      <div className="macro-grid">
        {data.macros.map((macro) => (
          <MacroCard
            key={macro.id}
            macro={macro}
            onEdit={(values) => setDialog({ kind: 'edit', macro: values })}
            onDelete={(values) => setDialog({ kind: 'delete', macro: values })}
          />
        ))}
      </div>
      {dialog?.kind === 'edit' && <EditMacroModal macro={dialog.macro} onClose={close} />}
      {dialog?.kind === 'delete' && (
        <ConfirmModal
          title="Delete Macro"
          question="Are you sure you would like to delete this Macro?"
          confirmLabel="Delete Macro"
          onClose={close}
          onConfirm={async () => {
            await deleteMacro({ variables: { id: dialog.macro.id } });
            close();
          }}
        />
      )}
    </section>
  );
}

export default function Macros() {
  return (
    <RequireAuth>
      <MacrosScreen />
    </RequireAuth>
  );
}
