package io.recourse.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * {@code recourse catalogue}: tooling for the failure catalogue (DESIGN §5.2):
 * {@code check} validates a rule file and runs fixtures through it, {@code explain} shows for each
 * closed turn which rules were tried and why the winner won, {@code score} measures a rule file on turns
 * whose answer is known (corpus sequences, observed cases).
 */
@Command(name = "catalogue", mixinStandardHelpOptions = true,
        description = "Failure catalogue tooling: validate rules, run fixtures, explain classifications, score on known answers.",
        subcommands = {CatalogueCheckCommand.class, CatalogueExplainCommand.class, CatalogueScoreCommand.class})
public final class CatalogueCommand implements Runnable {

    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "missing subcommand (check, explain, score)");
    }
}
