import { createContext, useContext } from 'react';

/**
 * The app-wide modals any header, nav bar or page can open. Row-level modals (edit/delete) live with their lists.
 * Features open one through useModals(); layout/ModalHost provides the controls and renders (and lazily loads) the
 * open modal, so the features never import the layout and the layout's lazy imports of them make no circle.
 */
export type GlobalModal = 'login' | 'signup' | 'createCustomer' | 'createMacro' | 'messageCenter';

export interface ModalControls {
  openModal: (modal: GlobalModal) => void;
  closeModal: () => void;
}

export const ModalContext = createContext<ModalControls>({ openModal: () => {}, closeModal: () => {} });

export function useModals(): ModalControls {
  return useContext(ModalContext);
}
