package io.recourse.kit;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Set;
import org.junit.jupiter.api.Test;

/** Tag values from frames and catalogues stay a bounded set (DESIGN §10). */
public class BoundedTagTest {

    @Test
    public void an_absent_or_blank_value_is_none() {
        BoundedTag tag = new BoundedTag(Set.of("anthropic"), 2);

        assertThat(tag.of(null)).isEqualTo("none");
        assertThat(tag.of("  ")).isEqualTo("none");
    }

    @Test
    public void a_known_value_is_kept_in_lower_case_whatever_came_before() {
        BoundedTag tag = new BoundedTag(Set.of("anthropic"), 0);

        assertThat(tag.of("zeta")).isEqualTo("other");
        assertThat(tag.of("Anthropic")).isEqualTo("anthropic");
    }

    @Test
    public void unknown_values_are_kept_up_to_the_cap_and_are_other_beyond_it() {
        BoundedTag tag = new BoundedTag(Set.of(), 2);

        assertThat(tag.of("p1")).isEqualTo("p1");
        assertThat(tag.of("p2")).isEqualTo("p2");
        assertThat(tag.of("p3")).isEqualTo("other");
        assertThat(tag.of("p1")).as("an admitted value stays admitted").isEqualTo("p1");
    }

    @Test
    public void a_value_that_is_not_a_name_is_other_and_takes_no_place_under_the_cap() {
        BoundedTag tag = new BoundedTag(Set.of(), 1);

        assertThat(tag.of("sk-ant api key with spaces")).isEqualTo("other");
        assertThat(tag.of("x".repeat(BoundedTag.MAX_LENGTH + 1))).isEqualTo("other");
        assertThat(tag.of("openrouter")).isEqualTo("openrouter");
    }
}
