import { useMutation, useQuery } from '@apollo/client/react';
import { removeMacro } from '../apollo/lists';
import { ConfirmModal } from '../ui/ConfirmModal';
import { RecordListHeader, useRecordDialog } from '../ui/RecordList';
import { MacroCard } from './MacroCard';
import { useModals } from '../layout/ModalHost';
import { EditMacroModal, type MacroValues } from './MacroForm';
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

/** view/macros: "(n) Macros" as cards; Edit and Delete open modals. */
export default function MacrosPage() {
  const { data } = useQuery(MACROS_PAGE);
  const { openModal } = useModals();
  const dialog = useRecordDialog<MacroValues>();
  const [deleteMacro] = useMutation(DELETE_MACRO, {
    update(cache, { data: result }) {
      // Tickets that used the macro now use "No Macro".
      if (result) removeMacro(cache, result.deleteMacro.id, result.deleteMacro.movedTicketIds);
    },
  });
  if (!data) return null;
  const deleting = dialog.deleting;

  return (
    <section className="page">
      <RecordListHeader
        eyebrow="Canned replies"
        title={`(${data.macros.length}) Macros`}
        createLabel="Create Macro"
        onCreate={() => openModal('createMacro')}
      />
      <div className="macro-grid">
        {data.macros.map((macro) => (
          <MacroCard key={macro.id} macro={macro} onEdit={dialog.edit} onDelete={dialog.remove} />
        ))}
      </div>
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
