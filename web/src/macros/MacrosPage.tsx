import { useMutation, useQuery } from '@apollo/client/react';
import { removeMacro } from '../apollo/cachedLists';
import { ConfirmModal } from '../ui/ConfirmModal';
import { LoadMore } from '../ui/LoadMore';
import { RecordListHeader, useRecordDialog } from '../ui/RecordList';
import { MacroCard } from './MacroCard';
import './macros.css';
import { useModals } from '../app/modals';
import { EditMacroModal, type MacroValues } from './MacroForm';
import { graphql } from '../gql';
import { LoadFailed, PageLoading } from '../ui/PageStates';

const MACROS_PAGE_SIZE = 50;

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

/** view/macros: "(n) Macros" as cards; Edit and Delete open modals. */
export default function MacrosPage() {
  const { data, error, refetch, fetchMore } = useQuery(MACROS_PAGE, { variables: { first: MACROS_PAGE_SIZE } });
  const { openModal } = useModals();
  const dialog = useRecordDialog<MacroValues>();
  const [deleteMacro] = useMutation(DELETE_MACRO, {
    update(cache, { data: result }) {
      // Tickets that used the macro now use "No Macro".
      if (result) removeMacro(cache, result.deleteMacro.id, result.deleteMacro.movedTicketIds);
    },
  });
  if (!data) return error ? <LoadFailed what="macros" error={error} retry={refetch} /> : <PageLoading />;
  const { totalCount, nodes, pageInfo } = data.macros;
  const deleting = dialog.deleting;

  return (
    <section className="page">
      <RecordListHeader eyebrow="Canned replies" title={`(${totalCount}) Macros`} createLabel="Create Macro" onCreate={() => openModal('createMacro')} />
      <div className="macro-grid">
        {nodes.map((macro) => (
          <MacroCard key={macro.id} macro={macro} onEdit={dialog.edit} onDelete={dialog.remove} />
        ))}
      </div>
      <LoadMore
        shown={nodes.length}
        total={totalCount}
        noun="macros"
        hasNextPage={pageInfo.hasNextPage}
        loadMore={() => fetchMore({ variables: { after: pageInfo.endCursor } })}
      />
      {dialog.editing && <EditMacroModal macro={dialog.editing} onClose={dialog.close} />}
      {deleting && (
        <ConfirmModal
          title="Delete Macro"
          question="Are you sure you would like to delete this Macro?"
          confirmLabel="Delete Macro"
          onClose={dialog.close}
          onConfirm={async () => {
            await deleteMacro({ variables: { id: deleting.id } });
            dialog.close();
          }}
        />
      )}
    </section>
  );
}
