package io.recourse.interactive;

import java.nio.charset.StandardCharsets;
import java.util.UUID;

/** Deterministic ids of the interactive owner's commands (DESIGN §6.3). */
public final class CommandIds {

    private CommandIds() {
    }

    /**
     * The {@code command_id} of a chain's attempt: the name-based (version 3) UUID of the UTF-8
     * bytes of {@code "recourse.kanban.retry/" + session_id + "/" + chain_start_generation + "/" + attempt}
     * ({@link UUID#nameUUIDFromBytes}), in its 36-character text form. The name is injective (the
     * last two parts are numbers), so distinct attempts get distinct ids and reprocessing the same
     * attempt gives the same id.
     */
    public static String retryCommandId(String sessionId, int chainStartGeneration, int attempt) {
        String name = "recourse.kanban.retry/" + sessionId + "/" + chainStartGeneration + "/" + attempt;
        return UUID.nameUUIDFromBytes(name.getBytes(StandardCharsets.UTF_8)).toString();
    }
}
