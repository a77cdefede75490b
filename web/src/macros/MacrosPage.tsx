import { useMutation, useQuery } from '@apollo/client/react';
import { useState } from 'react';
import { removeMacro } from '../apollo/lists';
import { ConfirmModal } from '../ui/ConfirmModal';
import { LoadMore } from '../ui/LoadMore';
import { MacroCard } from './MacroCard';
import { useModals } from '../layout/ModalHost';
import { EditMacroModal, type MacroValues } from './MacroForm';
import { graphql } from '../gql';

export const MACROS_PAGE_SIZE = 50;

const MACROS_PAGE = graphql(`
  query MacrosPage($first: Int!, $after: String) {
    macros(first: $first, after: $after) {
      totalCount
      nodes {
        id
        ...MacroCard_macro
      }
      pageInfo {
        endCursor
        hasNextPage
      }
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

export default function MacrosPage() {
  const { data, fetchMore } = useQuery(MACROS_PAGE, { variables: { first: MACROS_PAGE_SIZE } });
  const { openModal } = useModals();
  const [dialog, setDialog] = useState<Dialog>(null);
  const [deleteMacro] = useMutation(DELETE_MACRO, {
    update(cache, { data: result }) {
      // Tickets that used the macro now use "No Macro".
      if (result) removeMacro(cache, result.deleteMacro.id, result.deleteMacro.movedTicketIds);
    },
  });
  if (!data) return null;
  const close = () => setDialog(null);
  const { totalCount, nodes, pageInfo } = data.macros;

  return (
    <section className="page">
      <header className="page-header page-header-row">
        <div>
          <p className="eyebrow">Canned replies</p>
          <h1>({totalCount}) Macros</h1>
        </div>
        <button type="button" className="button button-primary" onClick={() => openModal('createMacro')}>
          Create Macro
        </button>
      </header>
      <div className="macro-grid">
        {nodes.map((macro) => (
          <MacroCard
            key={macro.id}
            macro={macro}
            onEdit={(values) => setDialog({ kind: 'edit', macro: values })}
            onDelete={(values) => setDialog({ kind: 'delete', macro: values })}
          />
        ))}
      </div>
      <LoadMore
        shown={nodes.length}
        total={totalCount}
        noun="macros"
        hasNextPage={pageInfo.hasNextPage}
        loadMore={() => fetchMore({ variables: { after: pageInfo.endCursor } })}
      />
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
