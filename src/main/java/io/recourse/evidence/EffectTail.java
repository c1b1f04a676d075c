package io.recourse.evidence;

import io.recourse.evidence.TurnState.EffectKind;
import io.recourse.evidence.TurnState.EffectMark;
import io.recourse.ingress.Frame;
import io.recourse.ingress.Payload;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The turn's effect tail (DESIGN §4): which message, thought and tool activity a turn showed, the
 * marks that tell where the trailing message run (the final-chunk excerpt) starts, and the progress
 * test. Pure functions over {@link MutableTurnState}, used by {@link EvidenceAssembler#accept}.
 */
final class EffectTail {

    private EffectTail() {
    }

    /**
     * Records an {@code acp_update} frame's effect on {@code m}: the first seq of each effect kind,
     * and a mark in the bounded effect tail ({@link EvidenceBounds#effectTail()}), a tool/thought run
     * marked once by its first update unless {@code markEveryEffect}; message texts are kept only for
     * the trailing message run, within one excerpt ({@link EvidenceBounds#maxSignalBytes()}, DESIGN §4).
     * Frames without an update, and blank message/thought chunks, change nothing.
     */
    static void record(MutableTurnState m, Frame frame, EvidenceBounds bounds, boolean markEveryEffect) {
        Payload update = frame.payload();
        if (!update.hasUpdate()) {
            return;
        }
        String type = update.sessionUpdate() == null ? "" : update.sessionUpdate();
        EffectKind kind;
        String text = null;
        switch (type) {
            case "agent_message_chunk", "agent_thought_chunk" -> {
                text = update.contentText();
                if (text == null || text.isBlank()) {
                    return;
                }
                kind = type.equals("agent_message_chunk") ? EffectKind.MESSAGE : EffectKind.THOUGHT;
            }
            case "tool_call", "tool_call_update" -> kind = EffectKind.TOOL;
            default -> {
                return;
            }
        }
        long seq = frame.seq();
        switch (kind) {
            case MESSAGE -> m.minMessageSeq = Math.min(m.minMessageSeq, seq);
            case THOUGHT -> m.minThoughtSeq = Math.min(m.minThoughtSeq, seq);
            case TOOL -> m.minToolSeq = Math.min(m.minToolSeq, seq);
        }
        if (kind != EffectKind.MESSAGE && !markEveryEffect && followsToolOrThoughtMark(m.effects, seq)) {
            // A tool/thought run is marked once, by its first update: what assembling reads of
            // non-message marks is only where a message run ends, and a later update of the same
            // run moves no such boundary (so it writes nothing: DESIGN §4). Its flag is set above.
            return;
        }
        List<EffectMark> effects = new ArrayList<>(m.effects);
        effects.add(new EffectMark(seq, kind, frame.occurredAt(), frame.phase(),
                kind == EffectKind.MESSAGE ? Sanitizer.sanitize(text) : null));
        effects.sort(Comparator.comparingLong(EffectMark::seq));
        while (effects.size() > bounds.effectTail()) {
            effects.remove(0);
            m.effectsEvicted++;
        }
        // Keep message texts only of the trailing run (after the latest thought/tool mark), newest
        // first, within one excerpt: ordinary assistant text is never kept (DESIGN §4).
        int budget = bounds.maxSignalBytes();
        boolean full = false;
        for (int i = effects.size() - 1; i >= 0; i--) {
            EffectMark e = effects.get(i);
            if (e.kind() != EffectKind.MESSAGE) {
                full = true;
                continue;
            }
            if (e.text() == null) {
                continue;
            }
            int size = SignalExtractor.utf8(e.text());
            if (full || size > budget) {
                full = true;
                effects.set(i, new EffectMark(e.seq(), e.kind(), e.occurredAt(), e.phase(), null));
            } else {
                budget -= size;
            }
        }
        m.effects = effects;
    }

    /**
     * Whether the latest mark before {@code seq} (by seq) is a tool or thought mark: a tool/thought
     * update there continues that run. {@code effects} is in seq order.
     */
    static boolean followsToolOrThoughtMark(List<EffectMark> effects, long seq) {
        EffectMark before = null;
        for (EffectMark e : effects) {
            if (e.seq() >= seq) {
                break;
            }
            before = e;
        }
        return before != null && before.kind() != EffectKind.MESSAGE;
    }

    /** Progress: tool activity or thought output, or a second message chunk (one chunk alone may be failure text). */
    static boolean progress(MutableTurnState m) {
        if (m.minToolSeq != TurnState.NONE || m.minThoughtSeq != TurnState.NONE) {
            return true;
        }
        return m.effects.stream().filter(e -> e.kind() == EffectKind.MESSAGE).count() >= 2;
    }
}
