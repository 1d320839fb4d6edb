package tui

import "github.com/charmbracelet/lipgloss"

// Styles is how the studio draws. Every mark that carries meaning is also
// a character (▶ for the targeted element, › for the cursor, ✓ ✗ for
// statuses), so the studio reads the same with NO_COLOR.
type Styles struct {
	Pane        lipgloss.Style
	PaneFocused lipgloss.Style
	Title       lipgloss.Style
	Target      lipgloss.Style
	Cursor      lipgloss.Style
	Dim         lipgloss.Style
	OK          lipgloss.Style
	Bad         lipgloss.Style
	Warn        lipgloss.Style
	Insert      lipgloss.Style
	Delete      lipgloss.Style
	Changed     lipgloss.Style
	StatusBar   lipgloss.Style
	StatusError lipgloss.Style
	TabActive   lipgloss.Style
	Tab         lipgloss.Style
}

// DefaultStyles is the studio's look. Colours drop out by themselves when
// the terminal has none or NO_COLOR is set (lipgloss's colour profile).
func DefaultStyles() Styles {
	border := lipgloss.RoundedBorder()
	return Styles{
		Pane:        lipgloss.NewStyle().Border(border).BorderForeground(lipgloss.Color("240")),
		PaneFocused: lipgloss.NewStyle().Border(border).BorderForeground(lipgloss.Color("63")),
		Title:       lipgloss.NewStyle().Bold(true),
		Target:      lipgloss.NewStyle().Reverse(true),
		Cursor:      lipgloss.NewStyle().Foreground(lipgloss.Color("63")).Bold(true),
		Dim:         lipgloss.NewStyle().Foreground(lipgloss.Color("245")),
		OK:          lipgloss.NewStyle().Foreground(lipgloss.Color("2")),
		Bad:         lipgloss.NewStyle().Foreground(lipgloss.Color("1")),
		Warn:        lipgloss.NewStyle().Foreground(lipgloss.Color("3")),
		Insert:      lipgloss.NewStyle().Foreground(lipgloss.Color("2")),
		Delete:      lipgloss.NewStyle().Foreground(lipgloss.Color("1")),
		Changed:     lipgloss.NewStyle().Foreground(lipgloss.Color("3")),
		StatusBar:   lipgloss.NewStyle().Reverse(true),
		StatusError: lipgloss.NewStyle().Foreground(lipgloss.Color("1")).Bold(true),
		TabActive:   lipgloss.NewStyle().Bold(true).Underline(true),
		Tab:         lipgloss.NewStyle().Foreground(lipgloss.Color("245")),
	}
}
