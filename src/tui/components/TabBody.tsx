/** The body between the tabs and the footer: the open overlay, or the current tab. */
import { Box } from 'ink';
import type { GatePoint } from '../../runtime/gate.ts';
import type { Screen } from '../hooks/use-screen.ts';
import type { Mode } from '../keys.ts';
import type { TuiState, WarnedBudget } from '../store/index.ts';
import type { ViewState } from '../view/view-state.ts';
import { BreakpointList } from './BreakpointList.tsx';
import { breakpointRows } from '../view/breakpoint-rows.ts';
import { BudgetPrompt } from './BudgetPrompt.tsx';
import { LinesView } from './LinesView.tsx';
import { DetailPane } from './DetailPane.tsx';
import { EventsTab } from './EventsTab.tsx';
import { HelpOverlay } from './HelpOverlay.tsx';
import { HumanPrompt } from './HumanPrompt.tsx';
import { ItemTable } from './ItemTable.tsx';
import { TreeView } from './TreeView.tsx';

export interface TabBodyProps {
  state: TuiState;
  view: ViewState;
  screen: Screen;
  mode: Mode;
  held: readonly GatePoint[];
  breakpoints: readonly string[];
  /** The oldest budget at its warning that waits for the person (the budget prompt). */
  warned?: WarnedBudget | undefined;
}

/** The tree tab: the windowed tree beside the selected actor's detail. */
function TreeTab({ state, view, screen, held }: TabBodyProps) {
  return (
    <Box height={screen.bodyHeight}>
      <TreeView
        actors={state.actors}
        rows={screen.tree}
        held={held}
        selected={screen.selected}
        start={screen.treeStart}
        height={screen.bodyHeight}
        width={screen.treeWidth}
        focused={view.focus === 'tree'}
      />
      <Box
        borderStyle="single"
        borderTop={false}
        borderBottom={false}
        borderRight={false}
        paddingLeft={1}
      >
        <DetailPane
          blocks={screen.blocks}
          cursor={screen.detailCursor}
          offset={view.detailOffset}
          expanded={view.detailExpanded}
          width={screen.detailWidth - 1}
          height={screen.bodyHeight}
          focused={view.focus === 'detail'}
        />
      </Box>
    </Box>
  );
}

/** Whatever the body shows now. */
export function TabBody(props: TabBodyProps) {
  const { view, screen } = props;
  const height = screen.bodyHeight;
  if (view.overlay === 'help')
    return (
      <HelpOverlay mode={props.mode} lines={screen.help} start={view.helpStart} height={height} />
    );
  if (view.overlay === 'budget') {
    return (
      <BudgetPrompt
        warned={props.warned}
        typed={view.budgetTyped}
        height={height}
        width={screen.columns}
      />
    );
  }
  if (view.overlay === 'answer') {
    return (
      <HumanPrompt
        question={props.state.questions[0]}
        typed={view.answer}
        form={view.form}
        height={height}
        width={screen.columns}
      />
    );
  }
  if (view.overlay === 'breakpoints' || view.overlay === 'breakpointAdd') {
    const typing =
      view.overlay === 'breakpointAdd'
        ? { typed: view.breakpointTyped, problem: view.breakpointProblem }
        : null;
    return (
      <BreakpointList
        rows={breakpointRows(props.breakpoints)}
        cursor={view.breakpointCursor}
        height={height}
        width={screen.columns}
        typing={typing}
      />
    );
  }
  switch (view.tab) {
    case 'costs':
      return <LinesView lines={screen.costs} start={view.costsStart} height={height} />;
    case 'events':
      return (
        <EventsTab
          lines={screen.events}
          start={view.eventsStart}
          selected={view.eventsSelected}
          height={height}
          width={screen.columns}
          filter={view.filter}
          editing={view.overlay === 'filter'}
          origin={props.state.header.startedAt}
        />
      );
    case 'outputs':
      return <LinesView lines={screen.outputs} start={view.outputsStart} height={height} />;
    case 'items':
      return (
        <ItemTable
          table={screen.items}
          query={{ ...view.itemsSort, text: view.filter }}
          editing={view.overlay === 'filter'}
          height={height}
          width={screen.columns}
        />
      );
    case 'tree':
      return <TreeTab {...props} />;
  }
}
